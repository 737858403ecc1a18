import type { Sender } from "./sender.ts";

export interface AppDeps {
  sender: Sender;
}
