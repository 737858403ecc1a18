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
  // A session that expired under the owner's hands keeps the dashboard (hidden, forms as they
  // were): a post written for an hour must survive logging in again.
  const [keepDashboard, setKeepDashboard] = useState(false);
  const session = useQuery({
    queryKey: queryKeys.session,
    queryFn: () => api<{ authenticated: boolean }>("/api/auth/session"),
  });

  useEffect(() => {
    const onEnded = () => {
      // A late 401 from a call made before a logout or another 401 is no news.
      if (queryClient.getQueryData<{ authenticated: boolean }>(queryKeys.session)?.authenticated === false) return;
      setEndedMessage(sessionExpiredMessage);
      setKeepDashboard(true);
      queryClient.setQueryData(queryKeys.session, { authenticated: false });
    };
    window.addEventListener(sessionEndedEvent, onEnded);
    return () => window.removeEventListener(sessionEndedEvent, onEnded);
  }, [queryClient]);

  /** After a successful login: the lists are read again under the new session. */
  const loggedIn = () => {
    setEndedMessage(null);
    setKeepDashboard(false);
    queryClient.setQueryData(queryKeys.session, { authenticated: true });
    void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.session[0] });
  };

  /**
   * After logout: back to the login form, everything forgotten. The session answer changes first,
   * so the gate swaps the dashboard out before any list is dropped: dropping them first left the
   * open tab to refetch its list, get a 401 and report the logout as an expired session.
   */
  const loggedOut = () => {
    setEndedMessage(null);
    setKeepDashboard(false);
    queryClient.setQueryData(queryKeys.session, { authenticated: false });
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.session[0] });
  };

  return { session, endedMessage, keepDashboard, loggedIn, loggedOut };
}
