import { expect, test } from "vitest";
import { apiPaths } from "../../api/api-paths.ts";
import { readerApi } from "./account-paths.ts";

test("the reader page's paths are the API's", () => {
  expect(readerApi).toEqual({
    signIn: apiPaths.readerSignIn,
    verify: apiPaths.readerSignInVerify,
    signOut: apiPaths.readerSignOut,
    me: apiPaths.readerMe,
    exportData: apiPaths.readerMeExport,
  });
});
