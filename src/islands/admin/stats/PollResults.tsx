import { useQuery } from "@tanstack/react-query";
import type { RouteAnswer } from "../../../api/declare-route.ts";
import { pollsRoutes } from "../../../api/routes/polls.routes.ts";
import { callApi } from "../api-client.ts";
import { ListState } from "../ui/ListState.tsx";
import { figure } from "./FigureTable.tsx";

type ListedPoll = RouteAnswer<typeof pollsRoutes.list>[number];

/** The polls' results grouped by the post that carries them (issue 42 point 6); a poll in no post (yet) under its own heading. */
function byPost(polls: ListedPoll[]): { key: string; title: string; polls: ListedPoll[] }[] {
  const groups = new Map<string, { key: string; title: string; polls: ListedPoll[] }>();
  for (const poll of polls) {
    const posts =
      poll.posts.length > 0 ? poll.posts.map((post) => ({ key: String(post.id), title: post.title })) : [{ key: "none", title: "In no post" }];
    for (const post of posts) {
      const group = groups.get(post.key) ?? { ...post, polls: [] };
      group.polls.push(poll);
      groups.set(post.key, group);
    }
  }
  return [...groups.values()];
}

/** One poll: its question, how many answered, and each answer's count and share as a bar. */
function PollFigures({ poll }: { poll: ListedPoll }) {
  return (
    <table className="mt-2 w-full text-left text-sm" aria-label={`Poll: ${poll.question}`}>
      <caption className="text-left font-semibold">
        {poll.question} <span className="font-normal text-slate">({figure(poll.total)} answered)</span>
      </caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Answer</th>
          <th scope="col">Answers</th>
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {poll.answers.map((answer) => (
          <tr key={answer.text}>
            <th scope="row" className="py-1 pr-2 font-normal">
              {answer.text}
            </th>
            <td className="py-1 pr-2 text-right tabular-nums">{figure(answer.count)}</td>
            <td className="w-1/2 py-1">
              <div className="flex items-center gap-2">
                <div className="h-3 border-2 border-ink bg-signal" style={{ width: `${String(answer.percent)}%` }} aria-hidden="true" />
                <span className="tabular-nums">{answer.percent}%</span>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Stats → Polls: every poll's results, per post. Not tied to the range: a poll's answers are counted whenever they came. */
export function PollResults() {
  const polls = useQuery({ queryKey: [pollsRoutes.list.path], queryFn: () => callApi(pollsRoutes.list) });
  return (
    <section aria-labelledby="poll-results-title" className="mt-6">
      <h3 id="poll-results-title" className="font-display text-lg uppercase">
        Polls
      </h3>
      <ListState
        loading={polls.isPending}
        error={polls.error}
        empty={polls.data?.length === 0}
        emptyText="No polls yet: add one with the Poll button in the post editor."
      />
      {byPost(polls.data ?? []).map((group) => (
        <div key={group.key} className="mt-3 border-3 border-ink p-4">
          <h4 className="font-semibold">{group.title}</h4>
          {group.polls.map((poll) => (
            <PollFigures key={poll.id} poll={poll} />
          ))}
        </div>
      ))}
    </section>
  );
}
