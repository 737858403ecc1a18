import { describe, expect, it } from "vitest";
import { InvalidEnvironmentError } from "./env-errors.ts";
import { databaseUrl, readServerEnv } from "./server-env.ts";

describe("server environment", () => {
  it("names each bad variable and the value it got", () => {
    const read = () => readServerEnv({ SITE_URL: "not a url", ADMIN_PATH: "has/slash" });
    expect(read).toThrow(InvalidEnvironmentError);
    expect(read).toThrow(/SITE_URL: must be an http\(s\) URL \(got "not a url"\)/);
    expect(read).toThrow(/ADMIN_PATH: must be 8–64 letters/);
  });

  it("refuses a password hash in the wrong format", () => {
    expect(() => readServerEnv({ ADMIN_PASSWORD_HASH: "plaintext" })).toThrow(/ADMIN_PASSWORD_HASH: must be a hash/);
  });

  it("defaults the username and prefers DATABASE_URL over Netlify's", () => {
    const env = readServerEnv({ DATABASE_URL: "postgres://a@db/one", NETLIFY_DB_URL: "postgres://b@db/two", SITE_URL: "" });
    expect(env.ADMIN_USERNAME).toBe("admin");
    expect(env.SITE_URL).toBeUndefined();
    expect(databaseUrl(env)).toBe("postgres://a@db/one");
    expect(databaseUrl(readServerEnv({ NETLIFY_DB_URL: "postgres://b@db/two" }))).toBe("postgres://b@db/two");
  });
});
