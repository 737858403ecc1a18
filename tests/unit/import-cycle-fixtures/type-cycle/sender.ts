import type { AppDeps } from "./app-deps.ts";

export interface Sender {
  send(deps: Pick<AppDeps, "sender">): void;
}
