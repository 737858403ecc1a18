import { notify } from "./notify.ts";

export const publish = (title: string) => notify(title);
