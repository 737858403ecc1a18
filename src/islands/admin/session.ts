import { useQuery, useQueryClient, type Query } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api, sessionEndedEvent, startSessionEpoch } from "./api-client.ts";
import { queryKeys } from "./query-client.ts";

export const sessionExpiredMessage = "Your session has expired. Please log in again.";

/** Every list the dashboard shows: all queries but the session's own. */
const isList = (query: Query) => query.queryKey[0] !== queryKeys.session[0];

/**
 * Whether the owner is logged in, asked of the server (`GET /api/auth/session`) so a reload keeps
 * the session. Any admin call answered 401 ends it here, with a message for the login form.
 */
export function useAdminSession() {
  const queryClient = useQueryClient();
  const [endedMessage, setEndedMessage] = useState<string | null>(null);
  // A session that expired under the owner's hands keeps the dashboard (hidden, forms as they
  // were): a post written for an hour must survive logging in again.
  const keepDashboard = endedMessage !== null;
  // Where the owner was working when the session ended, to return there after logging in. The
  // last focused control, not the focus of that moment: a Save button is disabled (and has lost
  // focus) while its call runs.
  const lastFocused = useRef<HTMLElement | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement) lastFocused.current = event.target;
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  const session = useQuery({
    queryKey: queryKeys.session,
    queryFn: () => api<{ authenticated: boolean }>("/api/auth/session"),
  });

  useEffect(() => {
    const onEnded = () => {
      // Several calls may find the session gone at once: the first one ends it.
      if (queryClient.getQueryData<{ authenticated: boolean }>(queryKeys.session)?.authenticated === false) return;
      startSessionEpoch();
      returnFocus.current = lastFocused.current;
      setEndedMessage(sessionExpiredMessage);
      queryClient.setQueryData(queryKeys.session, { authenticated: false });
    };
    window.addEventListener(sessionEndedEvent, onEnded);
    return () => window.removeEventListener(sessionEndedEvent, onEnded);
  }, [queryClient]);

  // Once the dashboard is shown again (this hook's answer is what shows it), focus goes back.
  const authenticated = session.data?.authenticated === true;
  useEffect(() => {
    const target = returnFocus.current;
    if (!authenticated || !target) return;
    returnFocus.current = null;
    if (target.isConnected) target.focus();
  }, [authenticated]);

  /** After a successful login: the lists are read again under the new session. */
  const loggedIn = () => {
    startSessionEpoch();
    setEndedMessage(null);
    queryClient.setQueryData(queryKeys.session, { authenticated: true });
    void queryClient.invalidateQueries({ predicate: isList });
  };

  /**
   * After logout: back to the login form, everything forgotten. The session answer changes first,
   * so the gate swaps the dashboard out before any list is dropped: dropping them first left the
   * open tab to refetch its list, get a 401 and report the logout as an expired session.
   */
  const loggedOut = () => {
    startSessionEpoch();
    setEndedMessage(null);
    queryClient.setQueryData(queryKeys.session, { authenticated: false });
    queryClient.removeQueries({ predicate: isList });
  };

  return { session, endedMessage, keepDashboard, loggedIn, loggedOut };
}
