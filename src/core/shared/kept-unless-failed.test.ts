import { describe, expect, it } from "vitest";
import { keptUnlessFailed } from "./kept-unless-failed.ts";

describe("keptUnlessFailed", () => {
  it("starts once and hands every call the same result", async () => {
    let starts = 0;
    const get = keptUnlessFailed(() => Promise.resolve(++starts));
    expect(await Promise.all([get(), get()])).toEqual([1, 1]);
    expect(await get()).toBe(1);
  });

  it("forgets a failed start, thrown or rejected, so the next call starts again", async () => {
    const outcomes = [
      () => Promise.reject(new Error("database down")),
      (): Promise<string> => {
        throw new Error("no variable");
      },
      () => Promise.resolve("up"),
    ];
    const get = keptUnlessFailed(() => (outcomes.shift() as () => Promise<string>)());
    await expect(get()).rejects.toThrow("database down");
    await expect(get()).rejects.toThrow("no variable");
    expect(await get()).toBe("up");
    expect(await get()).toBe("up");
  });
});
