import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** An SMTP server that only counts: messages, and how often each Message-ID arrived. Bodies are not parsed. */
export async function startCountingSink() {
  const seen = new Map<string, number>();
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 4000) head += chunk.toString();
      });
      stream.on("end", () => {
        received += 1;
        const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? `(none ${String(received)})`;
        seen.set(id, (seen.get(id) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${String((server.server.address() as AddressInfo).port)}`,
    counts: () => ({ received, distinct: seen.size, duplicates: [...seen.values()].filter((times) => times > 1).length }),
    reset: () => {
      received = 0;
      seen.clear();
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
