/** How a post stands after a save: live, waiting for its time, or a plain draft. */
export interface PublishState {
  published: boolean;
  publishedAt: Date | null;
  /** Set only while the post waits to go live. */
  publishAt: Date | null;
}

/** Whether a post scheduled for `publishAt` should be live at `now` (at the very instant, it is). */
export function isDue(publishAt: Date, now: Date): boolean {
  return publishAt.getTime() <= now.getTime();
}

/**
 * What a save makes of a post. "Publish immediately" wins over a time; a post already live keeps
 * its published date. A time still ahead schedules the post; a time already come publishes it now
 * (the owner wanted it live by then).
 */
export function publishStateAfterSave(
  form: { published: boolean; publishAt: Date | null },
  now: Date,
  current?: { published: boolean; publishedAt: Date | null },
): PublishState {
  const live = (): PublishState => ({ published: true, publishedAt: current?.published ? current.publishedAt : now, publishAt: null });
  if (form.published) return live();
  if (form.publishAt) return isDue(form.publishAt, now) ? live() : { published: false, publishedAt: null, publishAt: form.publishAt };
  return { published: false, publishedAt: null, publishAt: null };
}
