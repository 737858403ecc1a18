import { SaxesParser } from "saxes";
import { ValidationError } from "../errors.ts";

export const notWxrMessage = "This file is not a WordPress export (WXR): ";

/** One `<item>` of a WXR file: its simple fields by tag name, its categories and its post meta. */
export interface WxrItem {
  fields: Map<string, string>;
  categories: { domain: string; name: string }[];
  meta: Map<string, string>;
}

/** The channel's own fields (`link`, `wp:base_site_url`) and its items, as the file streams past. */
export type WxrEvent = { kind: "channel"; fields: Map<string, string> } | { kind: "item"; item: WxrItem };

/**
 * Reads a WXR file as it streams, one item at a time, never holding the whole file: a 100 MB
 * export stays a few items in memory. Names keep their prefix (`wp:post_id`, `content:encoded`).
 */
export async function* readWxrEvents(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<WxrEvent> {
  const parser = new SaxesParser({ xmlns: false });
  const ready: WxrEvent[] = [];
  const path: string[] = [];
  const channel = new Map<string, string>();
  let channelSent = false;
  let item: WxrItem | null = null;
  let text = "";
  let metaKey = "";
  let categoryDomain = "";
  parser.on("opentag", (tag) => {
    path.push(tag.name);
    text = "";
    if (tag.name === "item") {
      if (!channelSent) {
        ready.push({ kind: "channel", fields: channel });
        channelSent = true;
      }
      item = { fields: new Map(), categories: [], meta: new Map() };
    }
    if (tag.name === "category") categoryDomain = String(tag.attributes.domain ?? "");
  });
  const addText = (value: string) => {
    text += value;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", (tag) => {
    path.pop();
    const parent = path[path.length - 1];
    if (tag.name === "item" && item) {
      ready.push({ kind: "item", item });
      item = null;
    } else if (item) {
      if (tag.name === "category") item.categories.push({ domain: categoryDomain, name: text.trim() });
      else if (tag.name === "wp:meta_key") metaKey = text.trim();
      else if (tag.name === "wp:meta_value") item.meta.set(metaKey, text);
      else if (parent === "item") item.fields.set(tag.name, text);
    } else if (parent === "channel") channel.set(tag.name, text.trim());
    text = "";
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of chunks) {
      parser.write(decoder.decode(chunk, { stream: true }));
      yield* ready.splice(0);
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    throw new ValidationError(`${notWxrMessage}${error instanceof Error ? error.message : String(error)}`);
  }
  if (!channelSent) ready.push({ kind: "channel", fields: channel });
  yield* ready.splice(0);
}
