import type { EmailContent } from "./email-content.ts";

/** Makes one email from its links (everything else it shows is fixed by the shape). */
export type RenderWithLinks<K extends string> = (links: Record<K, string>) => Promise<EmailContent>;

/**
 * Renders an email of a given shape, reusing the shape's first render with each message's own links
 * filled in. `shape` names everything but the links that the email shows (its kind, the site's name
 * and address, a resource's title): two calls with the same shape and link names differ only in
 * their links. Each shape is rendered once, with a stand-in URL per link, and kept (up to `limit`
 * shapes, oldest out first); the links are then put in as React would have written them.
 */
export type RenderOnce = <K extends string>(shape: string, links: Record<K, string>, render: RenderWithLinks<K>) => Promise<EmailContent>;

/** A stand-in link: an absolute URL (the templates check), made of characters no escaping changes. */
function standIn(name: string): string {
  return `https://link.invalid/${name}`;
}

/**
 * Characters a link may hold to be filled in: what our URLs are made of (base64url tokens, numbers,
 * paths, query strings). React escapes only `&` among them in an attribute, as `&amp;`; a link with
 * anything else (a quote, `<`) is rendered whole instead, so a filled email is always byte for byte
 * the one a full render makes (`render-once.test.ts`).
 */
const fillable = /^[A-Za-z0-9\-._~:/?#[\]@!$&()*+,;=%]*$/;

/**
 * One cache of rendered shapes, for one delivery run: React Email takes 2–3.4 ms a message
 * (measured 2026-11-24 on the confirmation email), a fifth to a third of `npm start`'s one thread
 * during a signup burst; filling a kept render takes microseconds. A new run renders anew, so a
 * changed setting shows in the next run's mail.
 */
export function renderOnce(limit = 32): RenderOnce {
  const shapes = new Map<string, Promise<EmailContent>>();
  return async <K extends string>(shape: string, links: Record<K, string>, render: RenderWithLinks<K>) => {
    const names = (Object.keys(links) as K[]).sort();
    if (!names.every((name) => fillable.test(links[name]))) return render(links);
    const key = JSON.stringify([shape, names]);
    let kept = shapes.get(key);
    if (!kept) {
      if (shapes.size >= limit) shapes.delete(shapes.keys().next().value as string);
      kept = render(Object.fromEntries(names.map((name) => [name, standIn(name)])) as Record<K, string>);
      shapes.set(key, kept);
      // A render that failed is not kept: the next message tries again (and fails the same way).
      kept.catch(() => shapes.delete(key));
    }
    const content = await kept;
    let { html, text } = content;
    for (const name of names) {
      html = html.replaceAll(standIn(name), links[name].replaceAll("&", "&amp;"));
      text = text.replaceAll(standIn(name), links[name]);
    }
    return { subject: content.subject, html, text };
  };
}
