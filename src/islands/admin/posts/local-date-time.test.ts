import { afterEach, describe, expect, it } from "vitest";
import { formatScheduledTime, fromLocalInput, toLocalInput } from "./local-date-time.ts";

const originalZone = process.env.TZ;
const inZone = (zone: string) => {
  process.env.TZ = zone;
};
afterEach(() => {
  process.env.TZ = originalZone;
});

describe("Publish at in the owner's time zone", () => {
  it("reads the owner's wall-clock time as the instant it means there", () => {
    inZone("America/New_York");
    expect(fromLocalInput("2026-11-23T15:30")).toBe("2026-11-23T20:30:00.000Z");
    inZone("Europe/Berlin");
    expect(fromLocalInput("2026-11-23T15:30")).toBe("2026-11-23T14:30:00.000Z");
    inZone("Asia/Kolkata");
    expect(fromLocalInput("2026-11-23T15:30")).toBe("2026-11-23T10:00:00.000Z");
  });

  it("shows a saved instant back as the same wall-clock time, summer time included", () => {
    inZone("America/New_York");
    expect(toLocalInput("2026-11-23T20:30:00.000Z")).toBe("2026-11-23T15:30");
    expect(toLocalInput("2026-07-01T19:30:00.000Z")).toBe("2026-07-01T15:30");
    expect(fromLocalInput(toLocalInput("2026-07-01T19:30:00.000Z"))).toBe("2026-07-01T19:30:00.000Z");
    expect(formatScheduledTime("2026-11-23T20:30:00.000Z")).toBe("Nov 23, 2026, 3:30 PM EST");
  });

  it("leaves an empty field empty", () => {
    expect(fromLocalInput("")).toBe("");
    expect(toLocalInput(null)).toBe("");
  });
});
