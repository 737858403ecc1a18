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

  useEffect(() => {
    const onEnded = () => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.session, { authenticated: false });
      setEndedMessage(sessionExpiredMessage);
    };
    window.addEventListener(sessionEndedEvent, onEnded);
    return () => window.removeEventListener(sessionEndedEvent, onEnded);
  }, [queryClient]);

  /** After a successful login. */
  const loggedIn = () => {
    setEndedMessage(null);
    queryClient.setQueryData(queryKeys.session, { authenticated: true });
  };

  /** After logout: forget every list, back to the login form. */
  const loggedOut = () => {
    queryClient.clear();
    queryClient.setQueryData(queryKeys.session, { authenticated: false });
  };

  return { session, endedMessage, loggedIn, loggedOut };
}
