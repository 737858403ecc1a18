import { publish } from "./publish.ts";

export const draft = (title: string) => ({ title, publish: () => publish(title) });
