import { receiveEmailEvents } from "../../core/email-events/email-events.service.ts";
import { PayloadTooLargeError } from "../../core/errors.ts";
import { readLimitedBody } from "../body-limit.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { emailEventsRoutes } from "./email-events.routes.ts";

/** A provider's batch (SendGrid posts up to thousands of events at once) fits well under this. */
const maxWebhookBytes = 1024 * 1024;

export const emailEventsHandlers: RouteHandlers<typeof emailEventsRoutes> = {
  receive: async ({ params, request, deps }) => {
    // The raw bytes: every signature is over the body exactly as it was sent.
    const bytes = await readLimitedBody(
      request,
      maxWebhookBytes,
      () => new PayloadTooLargeError("The request body is too large (the limit is 1 MB)"),
    );
    await receiveEmailEvents(deps, params.provider, { headers: request.headers, body: new TextDecoder().decode(bytes) });
  },
};
