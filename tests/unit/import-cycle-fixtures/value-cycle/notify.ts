import { draft } from "./draft.ts";

export const notify = (title: string) => draft(`${title} (sent)`).title;
