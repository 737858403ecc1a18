/**
 * HTML's invoker commands (`command`, `commandfor` on a button), not yet in React's types. React
 * passes them through as plain attributes; the download button uses them to open its dialog
 * without JavaScript.
 */
import "react";

declare module "react" {
  // The type parameter must match React's declaration to merge with it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    command?: "show-modal" | "close" | "request-close";
    commandfor?: string;
  }
}
