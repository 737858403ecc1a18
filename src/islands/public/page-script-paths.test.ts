import { expect, test } from "vitest";
import { apiPaths } from "../../api/api-paths.ts";
import { readerApi } from "./account-paths.ts";
import { checkoutApi } from "./checkout-paths.ts";
import { commentCountsApi } from "./comment-counts-paths.ts";
import { commentsApi } from "./comments-paths.ts";
import { siteScriptApi } from "./site-script-paths.ts";

test("the page scripts' paths are the API's", () => {
  expect(readerApi).toEqual({
    signIn: apiPaths.readerSignIn,
    verify: apiPaths.readerSignInVerify,
    signOut: apiPaths.readerSignOut,
    me: apiPaths.readerMe,
    exportData: apiPaths.readerMeExport,
    replyNotices: apiPaths.readerMeReplyNotices,
    payments: apiPaths.readerPayments,
    billingPortal: apiPaths.billingPortal,
  });
  expect(checkoutApi).toEqual({ checkout: apiPaths.checkout, status: apiPaths.checkoutStatus });
  expect(commentsApi).toEqual({ postComments: apiPaths.postComments, comment: apiPaths.comment, readerMe: apiPaths.readerMe });
  expect(siteScriptApi).toEqual({ events: apiPaths.events, downloads: apiPaths.downloads });
  expect(commentCountsApi).toBe(apiPaths.commentCounts);
});
