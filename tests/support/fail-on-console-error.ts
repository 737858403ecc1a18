import { afterEach, beforeEach } from "vitest";

// A vitest setup file: a test that logs through console.error fails, so a swallowed server error
// cannot hide behind a passing test. A test that expects an error declares it and checks it:
//   const logged = vi.spyOn(console, "error").mockImplementation(() => {});
//   …
//   expect(logged).toHaveBeenCalledWith(expect.stringContaining("[api] GET /api/health failed"), expect.any(Error));

const consoleError = console.error.bind(console);
let unexpected: unknown[][] = [];

beforeEach(() => {
  unexpected = [];
  console.error = (...args: unknown[]) => {
    unexpected.push(args);
    consoleError(...args);
  };
});

afterEach(() => {
  // Also drops a spy the test put on console.error.
  console.error = consoleError;
  const logged = unexpected;
  unexpected = [];
  if (logged.length > 0) {
    const first = logged[0]?.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg))).join(" ");
    throw new Error(
      `console.error was called ${String(logged.length)} time(s) during this test, first with: ${first ?? ""}\n` +
        'If the test expects it, declare it with `vi.spyOn(console, "error").mockImplementation(() => {})` and assert on what was logged.',
    );
  }
});
