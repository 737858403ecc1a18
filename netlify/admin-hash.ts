/**
 * `npm run admin:hash`: prints an ADMIN_PASSWORD_HASH for a password read from standard input —
 * never from the command line, where it would land in shell history and process lists.
 *   printf '%s' 'my long password' | npm run --silent admin:hash
 * or run it in a terminal and type the password (not echoed).
 */
import { hashPassword } from "../src/core/auth/password.ts";

const minLength = 12;

async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString("utf8")
      .replace(/\r?\n$/, "");
  }
  process.stderr.write("Admin password (not shown): ");
  stdin.setRawMode(true);
  stdin.resume();
  let password = "";
  return new Promise((resolve) => {
    stdin.on("data", (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          process.stderr.write("\n");
          resolve(password);
          return;
        }
        if (char === "\u0003") process.exit(130); // Ctrl-C
        password = char === "\u007f" ? password.slice(0, -1) : password + char;
      }
    });
  });
}

const password = await readPassword();
if (password.length < minLength) {
  console.error(`The password must be at least ${String(minLength)} characters.`);
  process.exit(1);
}
console.log(await hashPassword(password));
