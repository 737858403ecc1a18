import { AppError, ForbiddenError, NotFoundError } from "../../core/errors.ts";
import { answerPoll, createPoll, listPollResults, pollResults, postPollResults, readPollForToken } from "../../core/polls/polls.service.ts";
import { isFormPost } from "../forms.ts";
import { pollPage, pollProblemPage } from "../poll-page.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { siteTemplates } from "../site-pages.ts";
import { pollAnswerPageUrl, type pollsRoutes } from "./polls.routes.ts";

/** The site's message template, asked of the site that answers; a plain page in the brand if it can't be had. */
const templates = (request: Request) => siteTemplates(request, 3_000);

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });

export const pollsHandlers: RouteHandlers<typeof pollsRoutes> = {
  create: ({ body, deps }) => createPoll(deps, body),
  list: async ({ query, deps }) => {
    if (query.post === undefined) return listPollResults(deps.db);
    // A post's polls: their posts are that post.
    const { rows } = await deps.db.query<{ title: string }>("SELECT title FROM posts WHERE id = $1", [query.post]);
    const post = { id: query.post, title: rows[0]?.title ?? "" };
    return (await postPollResults(deps.db, query.post)).map((poll) => ({ ...poll, posts: [post] }));
  },
  get: ({ params, deps }) => pollResults(deps.db, params.id),
  page: async ({ params, query, deps, request }) => {
    const loadTemplate = templates(request);
    try {
      const shown = await readPollForToken(deps, params.id, query.token);
      const notice = query.saved ? "saved" : query.error ? "error" : undefined;
      return await pollPage(shown, pollAnswerPageUrl(params.id, query.token), notice, loadTemplate);
    } catch (error) {
      if (error instanceof ForbiddenError) return pollProblemPage(403, loadTemplate);
      if (error instanceof NotFoundError) return pollProblemPage(404, loadTemplate);
      throw error;
    }
  },
  answer: async ({ params, query, body, deps, request }) => {
    if (!isFormPost(request)) return answerPoll(deps, params.id, query.token, body);
    // The page's form: back to the page, which says it is saved or what went wrong; never raw JSON.
    try {
      await answerPoll(deps, params.id, query.token, body);
      return seeOther(pollAnswerPageUrl(params.id, query.token, { saved: true }));
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return seeOther(pollAnswerPageUrl(params.id, query.token, { error: true }));
      throw error;
    }
  },
};
