import type { ApiUrls } from "../core/shared/links.ts";
import { downloadFileUrl } from "./routes/downloads.routes.ts";
import { isPublicFileUrl, publicFileUrl } from "./routes/files.routes.ts";
import { pollAnswerPageUrl } from "./routes/polls.routes.ts";
import { preferencesPageUrl } from "./routes/preferences.routes.ts";
import { newsletterClickUrl } from "./routes/stats.routes.ts";
import { confirmSubscriptionUrl, unsubscribeUrl } from "./routes/subscriptions.routes.ts";

/** The URLs services hand out, each built next to the route that answers it. */
export const apiUrls: ApiUrls = {
  file: publicFileUrl,
  isFile: isPublicFileUrl,
  downloadFile: downloadFileUrl,
  confirmSubscription: confirmSubscriptionUrl,
  unsubscribe: unsubscribeUrl,
  preferences: (token, unfollow) => preferencesPageUrl(token, unfollow === undefined ? {} : { unfollow }),
  pollAnswer: (pollId, token) => pollAnswerPageUrl(pollId, token),
  newsletterClick: newsletterClickUrl,
};
