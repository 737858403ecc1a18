import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import type { OutboxMessage } from "./outbox.ts";
import { personMailRenderer } from "./person-mail.ts";

// The start every renderer of mail to one subscriber shares (the welcome's, the download's), on a
// real database: who the row is for, the sender read once a run, and one render cache a run.
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const message = (subscriberId: number, to: string) => ({ subscriberId, to }) as OutboxMessage;
const setAddress = (value: string) =>
  app.deps.db.query("INSERT INTO site_settings (key, value) VALUES ('mailing_address', $1) ON CONFLICT (key) DO UPDATE SET value = $1", [value]);

describe("personMailRenderer", () => {
  it("gives each message its recipient, and a run one reading of the sender and one render per shape", async () => {
    await setAddress("1 First Street");
    let renders = 0;
    const seen: unknown[] = [];
    const run = () =>
      personMailRenderer(app.deps, (row, { recipient, identity, shape, once }) => {
        seen.push({ recipient, address: identity.mailingAddress });
        return once(shape("probe", { title: "Kit" }), { link: `https://nofilter.test/${String(recipient.id)}` }, (links) => {
          renders += 1;
          return Promise.resolve({ subject: row.to, html: links.link, text: links.link });
        });
      });

    const first = run();
    expect((await first(message(1, "a@example.com"))).html).toBe("https://nofilter.test/1");
    // A footer changed mid-run shows from the next run: the run's messages share the sender.
    await setAddress("2 Second Street");
    expect((await first(message(2, "b@example.com"))).html).toBe("https://nofilter.test/2");
    expect(renders).toBe(1);
    await run()(message(3, "c@example.com"));
    expect(renders).toBe(2);
    expect(seen).toEqual([
      { recipient: { id: 1, email: "a@example.com" }, address: "1 First Street" },
      { recipient: { id: 2, email: "b@example.com" }, address: "1 First Street" },
      { recipient: { id: 3, email: "c@example.com" }, address: "2 Second Street" },
    ]);
  });
});
