import { describe, expect, it } from "vitest";
import { renderConfirmationEmail, renderDownloadEmail, renderWelcomeEmail, type EmailContent } from "./emails.ts";
import { renderOnce, type RenderWithLinks } from "./render-once.ts";

const identity = { siteName: "No Filter", siteUrl: "https://nofilter.example", mailingAddress: "1 Main St\nSpringfield" };

/** Links as the app makes them: tokens, numbers and query strings with `&`. */
const linkSets = [
  {
    confirmUrl: "https://nofilter.example/api/newsletter/confirm?token=eyJ2IjoxfQ.AbC-_09xyz",
    unsubscribeUrl: "https://nofilter.example/api/newsletter/unsubscribe?token=u1.Zz_-9",
    downloadUrl: "https://nofilter.example/api/downloads/7/file?expires=1764000000000&signature=q-_Qw9",
  },
  {
    confirmUrl: "https://nofilter.example/api/newsletter/confirm?token=second&x=%20y",
    unsubscribeUrl: "https://nofilter.example/api/newsletter/unsubscribe?token=u2&a=b&c=d",
    downloadUrl: "https://nofilter.example/api/downloads/12/file?expires=1&signature=AAAA",
  },
];

const kinds: Record<string, { names: (keyof (typeof linkSets)[number])[]; render: RenderWithLinks<string> }> = {
  confirmation: { names: ["confirmUrl"], render: (links) => renderConfirmationEmail({ ...identity, confirmUrl: links.confirmUrl as string }) },
  welcome: { names: ["unsubscribeUrl"], render: (links) => renderWelcomeEmail({ ...identity, unsubscribeUrl: links.unsubscribeUrl as string }) },
  download: {
    names: ["downloadUrl", "unsubscribeUrl"],
    render: (links) =>
      renderDownloadEmail({
        ...identity,
        resourceTitle: "Runway & burn — the sheet",
        downloadUrl: links.downloadUrl as string,
        unsubscribeUrl: links.unsubscribeUrl as string,
        confirmUrl: null,
      }),
  },
  "download with the invitation": {
    names: ["downloadUrl", "unsubscribeUrl", "confirmUrl"],
    render: (links) =>
      renderDownloadEmail({
        ...identity,
        resourceTitle: "Runway & burn — the sheet",
        downloadUrl: links.downloadUrl as string,
        unsubscribeUrl: links.unsubscribeUrl as string,
        confirmUrl: links.confirmUrl as string,
      }),
  },
};

function pick(set: (typeof linkSets)[number], names: (keyof typeof set)[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, set[name]]));
}

describe("renderOnce", () => {
  for (const [kind, { names, render }] of Object.entries(kinds)) {
    it(`fills the ${kind} email byte for byte as a full render makes it, rendering it once`, async () => {
      const once = renderOnce();
      let renders = 0;
      const counted: RenderWithLinks<string> = (links) => {
        renders += 1;
        return render(links);
      };
      for (const set of linkSets) {
        const links = pick(set, names);
        const filled = await once(kind, links, counted);
        const whole = await render(links);
        expect(filled).toEqual(whole);
        // The test would pass on a render that dropped its links: they are there.
        for (const link of Object.values(links)) expect(filled.text).toContain(link);
      }
      expect(renders).toBe(1);
    });
  }

  it("renders a link it cannot fill safely (a quote) whole, and a new shape anew", async () => {
    const once = renderOnce();
    const shapes: string[] = [];
    const render: RenderWithLinks<"confirmUrl"> = (links) => {
      shapes.push(links.confirmUrl);
      return renderConfirmationEmail({ ...identity, confirmUrl: links.confirmUrl });
    };
    const quoted = { confirmUrl: "https://nofilter.example/confirm?token=it's" };
    expect(await once("a", quoted, render)).toEqual(await renderConfirmationEmail({ ...identity, ...quoted }));
    await once("a", { confirmUrl: "https://nofilter.example/1" }, render);
    await once("a", { confirmUrl: "https://nofilter.example/2" }, render);
    await once("b", { confirmUrl: "https://nofilter.example/3" }, render);
    expect(shapes).toEqual([quoted.confirmUrl, "https://link.invalid/confirmUrl", "https://link.invalid/confirmUrl"]);
  });

  it("does not keep a render that failed", async () => {
    const once = renderOnce();
    let calls = 0;
    const render: RenderWithLinks<"confirmUrl"> = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error("settings unreadable")) : Promise.resolve<EmailContent>({ subject: "s", html: "h", text: "t" });
    };
    await expect(once("a", { confirmUrl: "https://x.example/1" }, render)).rejects.toThrow("settings unreadable");
    expect(await once("a", { confirmUrl: "https://x.example/2" }, render)).toEqual({ subject: "s", html: "h", text: "t" });
    expect(calls).toBe(2);
  });
});
