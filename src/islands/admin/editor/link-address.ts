import { isAllowedLink, linkSchemes } from "../../../core/posts/link-schemes.ts";

export const linkSchemeMessage = `Links may only start with ${linkSchemes.join(", ")} (or be a path on this site).`;

/**
 * What the link form's URL becomes: `example.com` gets SPEC §9's default protocol (http), a
 * scheme outside SPEC §5's list is refused with a message.
 */
export function linkAddress(input: string): { href: string } | { error: string } {
  const text = input.trim();
  if (text === "") return { error: "Please enter a URL." };
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text);
  const sitePath = text.startsWith("/") || text.startsWith("#");
  const href = hasScheme || sitePath ? text : `http://${text}`;
  return isAllowedLink(href) ? { href } : { error: linkSchemeMessage };
}
