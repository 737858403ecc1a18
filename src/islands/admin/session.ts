import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, sessionEndedEvent } from "./api-client.ts";
import { queryKeys } from "./query-client.ts";

export const sessionExpiredMessage = "Your session has expired. Please log in again.";

/**
 * Whether the owner is logged in, asked of the server (`GET /api/auth/session`) so a reload keeps
 * the session. Any admin call answered 401 ends it here, with a message for the login form.
 */
export function useAdminSession() {
  const queryClient = useQueryClient();
  const [endedMessage, setEndedMessage] = useState<string | null>(null);
  const session = useQuery({
    queryKey: queryKeys.session,
    queryFn: () => api<{ authenticated: boolean }>("/api/auth/session"),
  });

  /**
   * Back to the login form. The session answer changes first, so the gate swaps the dashboard out
   * before any list is forgotten: clearing first left the open tab to refetch its list, get a 401
   * and report a logout as an expired session.
   */
  const endSession = (message: string | null) => {
    setEndedMessage(message);
    queryClient.setQueryData(queryKeys.session, { authenticated: false });
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.session[0] });
  };

  useEffect(() => {
    const onEnded = () => {
      // A late 401 from a call made before a logout is no news.
      if (queryClient.getQueryData<{ authenticated: boolean }>(queryKeys.session)?.authenticated === false) return;
      endSession(sessionExpiredMessage);
    };
    window.addEventListener(sessionEndedEvent, onEnded);
    return () => window.removeEventListener(sessionEndedEvent, onEnded);
  });

  /** After a successful login. */
  const loggedIn = () => {
    setEndedMessage(null);
    queryClient.setQueryData(queryKeys.session, { authenticated: true });
  };

  /** After logout: forget every list, back to the login form. */
  const loggedOut = () => endSession(null);

  return { session, endedMessage, loggedIn, loggedOut };
}
