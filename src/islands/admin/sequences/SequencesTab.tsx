import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { sequencesRoutes } from "../../../api/routes/sequences.routes.ts";
import { callApi } from "../api-client.ts";
import { ListState } from "../ui/ListState.tsx";
import { SequenceEditor } from "./SequenceEditor.tsx";

/** The sequences' list, read once and refreshed after a save. */
export const sequencesQuery = { queryKey: [sequencesRoutes.list.path], queryFn: () => callApi(sequencesRoutes.list) };

/** Sequences: the welcome sequence and one per resource; choose one to edit its steps. */
export default function SequencesTab() {
  const list = useQuery(sequencesQuery);
  const [chosen, setChosen] = useState("welcome");
  const sequences = list.data ?? [];
  const sequence = sequences.find((item) => item.key === chosen);
  return (
    <div className="space-y-6">
      <section aria-labelledby="sequences-title" className="card p-5">
        <h2 id="sequences-title" className="section-title text-2xl">
          Sequences
        </h2>
        <p className="mt-1 text-sm">
          Emails that go out on their own: the welcome sequence to each new confirmed subscriber, and a resource&apos;s sequence to people who asked
          for it and confirmed. Each step waits its delay after the one before.
        </p>
        <ListState loading={list.isPending} error={list.error} empty={false} emptyText="" />
        {sequences.length > 0 && (
          <ul className="mt-3 flex flex-wrap gap-2" aria-label="Sequences">
            {sequences.map((item) => (
              <li key={item.key}>
                <button
                  type="button"
                  className={item.key === chosen ? "btn py-2 text-sm" : "btn btn-light py-2 text-sm"}
                  aria-pressed={item.key === chosen}
                  onClick={() => setChosen(item.key)}
                >
                  {item.name} ({item.enabled ? "on" : "off"}, {item.steps.length} {item.steps.length === 1 ? "step" : "steps"})
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {sequence && <SequenceEditor key={sequence.key} sequence={sequence} />}
    </div>
  );
}
