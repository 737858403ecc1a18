import { afterAll, afterEach, beforeEach } from "vitest";

// A vitest setup file: console.error during a test fails that test, and during a file's
// beforeAll/afterAll hooks fails the file, so a swallowed server error cannot hide behind a
// passing test. A test that expects an error declares it and checks it:
//   const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
//   …
//   expect(logged.mock.calls).toEqual([[expect.stringMatching(/^\[api\] GET \/api\/boom/), failure]]);

const consoleError = console.error.bind(console);
let logged: unknown[][] = [];
const loggedByHooks: unknown[][] = [];
const record = (...args: unknown[]) => {
  logged.push(args);
  consoleError(...args);
};
console.error = record;

beforeEach(() => {
  loggedByHooks.push(...logged);
  logged = [];
});

afterEach(() => {
  // Also drops a spy the test put on console.error.
  console.error = record;
  const duringTest = logged;
  logged = [];
  if (duringTest.length > 0) throw unexpected(duringTest, "during this test");
});

afterAll(() => {
  console.error = consoleError;
  loggedByHooks.push(...logged);
  if (loggedByHooks.length > 0) throw unexpected(loggedByHooks, "in this file's beforeAll/afterAll hooks");
});

function unexpected(calls: unknown[][], where: string): Error {
  const first = (calls[0] ?? []).map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg))).join(" ");
  return new Error(
    `console.error was called ${String(calls.length)} time(s) ${where}, first with: ${first}\n` +
      'If the test expects it, declare it with `vi.spyOn(console, "error").mockImplementation(() => undefined)` and assert on what was logged.',
  );
}
