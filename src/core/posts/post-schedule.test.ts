import { describe, expect, it } from "vitest";
import { postFormSchema } from "./post.schema.ts";
import { isDue, publishStateAfterSave } from "./post-schedule.ts";

const at = (iso: string) => new Date(iso);
const minute = 60_000;

describe("isDue", () => {
  const publishAt = at("2026-11-23T20:30:00Z");
  it("is false a minute before, true at the instant and after", () => {
    expect(isDue(publishAt, new Date(publishAt.getTime() - minute))).toBe(false);
    expect(isDue(publishAt, new Date(publishAt.getTime() - 1))).toBe(false);
    expect(isDue(publishAt, publishAt)).toBe(true);
    expect(isDue(publishAt, new Date(publishAt.getTime() + minute))).toBe(true);
  });

  it("compares instants, whatever time zone the owner wrote the time in", () => {
    // 15:30 in New York (UTC−5 in November) is 21:30 in Berlin and 20:30 UTC.
    const newYork = postFormSchema.parse({ title: "t", content: "c", publishAt: "2026-11-23T15:30:00-05:00" }).publishAt as Date;
    const berlin = postFormSchema.parse({ title: "t", content: "c", publishAt: "2026-11-23T21:30:00+01:00" }).publishAt as Date;
    expect(newYork.toISOString()).toBe("2026-11-23T20:30:00.000Z");
    expect(berlin.getTime()).toBe(newYork.getTime());
    expect(isDue(newYork, at("2026-11-23T20:29:00Z"))).toBe(false);
    expect(isDue(newYork, at("2026-11-23T20:30:00Z"))).toBe(true);
  });
});

describe("publishStateAfterSave", () => {
  const now = at("2026-11-23T20:00:00Z");

  it("publishes now with Publish immediately, whatever time is set", () => {
    expect(publishStateAfterSave({ published: true, publishAt: at("2026-12-01T00:00:00Z") }, now)).toEqual({
      published: true,
      publishedAt: now,
      publishAt: null,
    });
  });

  it("schedules a draft for a time ahead, even a minute ahead", () => {
    const soon = new Date(now.getTime() + minute);
    expect(publishStateAfterSave({ published: false, publishAt: soon }, now)).toEqual({ published: false, publishedAt: null, publishAt: soon });
  });

  it("publishes at once when the time set has already come (at the instant or before)", () => {
    expect(publishStateAfterSave({ published: false, publishAt: now }, now)).toMatchObject({ published: true, publishedAt: now, publishAt: null });
    expect(publishStateAfterSave({ published: false, publishAt: new Date(now.getTime() - minute) }, now)).toMatchObject({ published: true });
  });

  it("keeps a live post's published date, and a draft without a time is a draft", () => {
    const earlier = at("2026-01-01T00:00:00Z");
    expect(publishStateAfterSave({ published: true, publishAt: null }, now, { published: true, publishedAt: earlier }).publishedAt).toBe(earlier);
    expect(publishStateAfterSave({ published: false, publishAt: null }, now, { published: true, publishedAt: earlier })).toEqual({
      published: false,
      publishedAt: null,
      publishAt: null,
    });
  });
});

describe("the form's Publish at", () => {
  it("is optional, and refused when it is not a date and time", () => {
    expect(postFormSchema.parse({ title: "t", content: "c", publishAt: "" }).publishAt).toBeNull();
    const refused = postFormSchema.safeParse({ title: "t", content: "c", publishAt: "tomorrow" });
    expect(refused.success ? undefined : refused.error.issues[0]?.message).toBe("Publish at must be a valid date and time");
  });
});
