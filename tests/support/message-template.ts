import { messageTokens } from "../../src/lib/message-template.ts";

/** The site's message page as built: the tokens where the heading, the text and the actions go. */
export const messageTemplate = `<html><head><title>${messageTokens.heading}</title></head><body><h1>${messageTokens.heading}</h1><p>${messageTokens.text}</p>${messageTokens.actions}</body></html>`;

/** A page loader that has only the message page, as the server-rendered pages' tests give them. */
export const loadMessageTemplate = (path: string): Promise<string> =>
  path === "/message-template/" ? Promise.resolve(messageTemplate) : Promise.reject(new Error(`no ${path}`));
