import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { newsletterRoutes } from "../../../api/routes/newsletter.routes.ts";
import { pollsRoutes } from "../../../api/routes/polls.routes.ts";
import { maxPollAnswers, minPollAnswers, pollFormSchema, type PollForm as PollFormInput } from "../../../core/polls/poll.schema.ts";
import { callApi } from "../api-client.ts";
import type { PollAttributes } from "./poll-node.ts";

interface Draft {
  text: string;
  tag: string;
}

/**
 * The toolbar's Poll dialog (issue 42 point 6): a question and 2–5 answers, each with an optional
 * subscriber tag (the tags there are, offered as the owner types; a new one is made on the first
 * answer). "Add poll" makes the poll (`POST /api/polls`) and hands it to the editor to place. Not a
 * <form>: it sits inside the post form.
 */
export function PollForm({ onAdd, onCancel }: { onAdd: (poll: PollAttributes) => void; onCancel: () => void }) {
  const [question, setQuestion] = useState("");
  const [answers, setAnswers] = useState<Draft[]>([
    { text: "", tag: "" },
    { text: "", tag: "" },
  ]);
  const [error, setError] = useState<string | null>(null);
  const tags = useQuery({ queryKey: [newsletterRoutes.tagList.path], queryFn: () => callApi(newsletterRoutes.tagList) });
  const create = useMutation({ mutationFn: (body: PollFormInput) => callApi(pollsRoutes.create, { body }) });

  const change = (at: number, part: Partial<Draft>) =>
    setAnswers((list) => list.map((answer, index) => (index === at ? { ...answer, ...part } : answer)));
  const add = async () => {
    const form = {
      question,
      answers: answers.map((answer) => ({ text: answer.text, ...(answer.tag.trim() !== "" && { tag: answer.tag.trim() }) })),
    };
    const checked = pollFormSchema.safeParse(form);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Check the poll");
      return;
    }
    setError(null);
    try {
      const { id } = await create.mutateAsync(checked.data);
      onAdd({ id, question: checked.data.question, answers: checked.data.answers.map((answer) => answer.text) });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "The poll could not be made.");
    }
  };

  return (
    <div
      className="admin-link-form flex-col items-stretch"
      role="group"
      aria-labelledby="admin-poll-title"
      onKeyDown={(event) => {
        // Enter in a field must not submit the post form around the dialog; Escape closes it.
        if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          void add();
        } else if (event.key === "Escape") {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <p id="admin-poll-title" className="font-display text-sm uppercase">
        New poll
      </p>
      <label className="text-sm font-semibold" htmlFor="admin-poll-question">
        Question
      </label>
      <input
        id="admin-poll-question"
        type="text"
        className="admin-input"
        maxLength={300}
        value={question}
        autoFocus
        onChange={(event) => setQuestion(event.target.value)}
      />
      <datalist id="admin-poll-tags">
        {(tags.data ?? []).map((tag) => (
          <option key={tag.tag} value={tag.tag} />
        ))}
      </datalist>
      {answers.map((answer, index) => (
        <div key={index} className="flex flex-wrap items-center gap-2">
          <label className="text-sm font-semibold" htmlFor={`admin-poll-answer-${String(index)}`}>
            Answer {index + 1}
          </label>
          <input
            id={`admin-poll-answer-${String(index)}`}
            type="text"
            className="admin-input flex-1"
            maxLength={200}
            value={answer.text}
            onChange={(event) => change(index, { text: event.target.value })}
          />
          <label className="text-sm font-semibold" htmlFor={`admin-poll-tag-${String(index)}`}>
            Tag (optional)
          </label>
          <input
            id={`admin-poll-tag-${String(index)}`}
            type="text"
            className="admin-input w-48"
            list="admin-poll-tags"
            maxLength={80}
            placeholder="e.g. stage:seed"
            value={answer.tag}
            onChange={(event) => change(index, { tag: event.target.value })}
          />
          {answers.length > minPollAnswers && (
            <button
              type="button"
              className="btn btn-light py-1 text-sm"
              aria-label={`Remove answer ${String(index + 1)}`}
              onClick={() => setAnswers((list) => list.filter((_, at) => at !== index))}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      <div className="flex flex-wrap gap-2">
        {answers.length < maxPollAnswers && (
          <button type="button" className="btn btn-light py-1 text-sm" onClick={() => setAnswers((list) => [...list, { text: "", tag: "" }])}>
            Add answer
          </button>
        )}
        <button type="button" className="btn py-1 text-sm" disabled={create.isPending} onClick={() => void add()}>
          {create.isPending ? "Adding…" : "Add poll"}
        </button>
        <button type="button" className="btn btn-light py-1 text-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
      <p className="text-sm">The email shows each answer as a link; a reader confirms their answer on the page it opens. Results: Stats → Polls.</p>
    </div>
  );
}
