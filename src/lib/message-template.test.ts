import { describe, expect, it } from "vitest";
import { fillMessageTemplate, messageTokens } from "./message-template.ts";

describe("the message template", () => {
  const template = `<title>${messageTokens.heading} — No Filter</title><h1>${messageTokens.heading}</h1><p>${messageTokens.text}</p><div>${messageTokens.actions}</div>`;
  it("puts the heading in the title and the page, escapes the texts, and takes the actions as HTML", () => {
    expect(fillMessageTemplate(template, { heading: "You're <in>", text: "Tom & Jerry", actionsHtml: '<a href="/">Home</a>' })).toBe(
      '<title>You&#39;re &lt;in&gt; — No Filter</title><h1>You&#39;re &lt;in&gt;</h1><p>Tom &amp; Jerry</p><div><a href="/">Home</a></div>',
    );
  });
});
