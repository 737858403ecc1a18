import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  defaultReadTime,
  maxReadTime,
  minReadTime,
  postCategories,
  featuredImageAltMessage,
  postFormSchema,
  type Post,
  type PostFormInput,
} from "../../../core/posts/post.schema.ts";
import { blogPostsRoutes } from "../../../api/routes/blog-posts.routes.ts";
import { ApiError, callApi, formDataOf } from "../api-client.ts";
import RichEditor from "../editor/RichEditor.tsx";
import { altValues, ImageAltFields } from "../editor/ImageAltFields.tsx";
import { undescribedImages, undescribedImagesMessage } from "../editor/image-alt.ts";
import { foreignImageSources } from "./foreign-images.ts";
import { TagsField } from "./TagsField.tsx";
import { CoverFocusPicker } from "./CoverFocusPicker.tsx";
import { focusFieldValue, type ImageFocus } from "../../../core/shared/image-focus.schema.ts";
import { queries } from "../query-client.ts";
import { fromLocalInput, ownTimeZone, toLocalInput } from "./local-date-time.ts";
import { formText, recheckField, validateForm, type FieldErrors } from "../form-errors.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";
import { checkFormSize } from "../upload-checks.ts";
import { ImageNote } from "../ui/ImageNote.tsx";
import { useChosenImage } from "../use-chosen-image.ts";
import { useObjectUrl } from "../use-object-url.ts";
import { Field } from "../ui/Field.tsx";
import { CategorySelect } from "../ui/CategorySelect.tsx";
import type { ItemFormProps } from "../ui/ListAndForm.tsx";
import { ItemFormCard } from "../ui/ItemFormCard.tsx";

/** The site shows only the images it stores (its CSP loads no others), so the owner hears it before saving. */
const foreignImagesMessage =
  "Images from other sites can't show on this site (it only loads its own files): remove them, or upload each one with the Image button.";

/** The post form: create, or edit the post chosen in Recent Posts (SPEC §2, §5). */
export default function PostForm({ editing, onDone, onCancel }: ItemFormProps<Post>) {
  const [content, setContent] = useState(editing?.content ?? "");
  const chosenImage = useChosenImage();
  const image = chosenImage.file;
  // A chosen file previews from memory; without one, the stored image.
  const preview = useObjectUrl(image) ?? editing?.featuredImage ?? null;
  const [focus, setFocus] = useState<ImageFocus | null>(editing?.featuredImageFocus ?? null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [publishNow, setPublishNow] = useState(editing?.published ?? false);
  const queryClient = useQueryClient();

  const save = useMutation({
    mutationFn: (body: PostFormInput) =>
      editing ? callApi(blogPostsRoutes.update, { params: { id: editing.id }, body }) : callApi(blogPostsRoutes.create, { body }),
    onSuccess: (saved) => {
      // A new name typed in the tags field is a tag now: the next post's suggestions offer it.
      void queryClient.invalidateQueries({ queryKey: queries.tags.queryKey });
      const text = editing ? toastTexts.postUpdated : toastTexts.postCreated;
      showToast(saved.published ? { ...text, link: { label: "View post", href: saved.url } } : text);
      onDone();
    },
    onError: (error) => {
      // The server's own words for a refused form (400/413/415) go where the owner is looking; a
      // slug another post has (409) goes under the slug field.
      if (error instanceof ApiError && error.status === 409) setErrors({ slug: error.message });
      else if (error instanceof ApiError && error.status < 500 && error.status !== 401) setErrors({ "": error.message });
      showErrorToast(editing ? "Failed to update blog post." : "Failed to create blog post.");
    },
  });

  /** The form's values and what is wrong with them: one check for the submit and for each change. */
  const check = (form: HTMLFormElement, withContent = content) => {
    const data = new FormData(form);
    const values = {
      title: formText(data, "title"),
      emailSubject: formText(data, "emailSubject"),
      excerpt: formText(data, "excerpt"),
      category: formText(data, "category") as PostFormInput["category"],
      readTime: formText(data, "readTime"),
      published: data.get("published") === "on",
      slug: formText(data, "slug"),
      tags: formText(data, "tags"),
      publishAt: fromLocalInput(formText(data, "publishAt")),
      sendAsNewsletter: data.get("sendAsNewsletter") === "on",
      commentsClosed: data.get("commentsClosed") === "on",
      content: withContent,
    };
    // The featured image's alt text: sent (and required) whenever there is an image, new or kept.
    const hasImage = Boolean(chosenImage.file ?? editing?.featuredImage);
    const alt = altValues(data, "featuredImageAlt", "featuredImageDecorative");
    if (hasImage) {
      Object.assign(values, {
        featuredImageAlt: alt.alt ?? "",
        featuredImageDecorative: alt.decorative,
        featuredImageFocus: formText(data, "featuredImageFocus"),
      });
    }
    const checked = validateForm(postFormSchema, values);
    const imageError = chosenImage.error;
    const contentError =
      foreignImageSources(withContent).length > 0 ? foreignImagesMessage : undescribedImages(withContent) > 0 ? undescribedImagesMessage : undefined;
    const found: FieldErrors = {
      ...(contentError && { content: contentError }),
      ...(checked.ok ? {} : checked.errors),
      ...(imageError && { featuredImage: imageError }),
      ...(hasImage && alt.missing && { featuredImageAlt: featuredImageAltMessage }),
    };
    return { values, found };
  };

  /** Sends a form whose check found nothing, unless it is too large for one request. */
  const send = (form: HTMLFormElement) => {
    const body: PostFormInput = { ...check(form).values, ...(image && { featuredImage: image }) };
    const tooLarge = checkFormSize(
      formDataOf(body),
      "The featured image and the content together are too large to send (the limit is 4 MB per save). Choose a smaller image.",
    );
    if (tooLarge) {
      setErrors({ "": tooLarge });
      return;
    }
    save.mutate(body);
  };

  return (
    <ItemFormCard
      formId="admin-post-form"
      title={editing ? "Edit Post" : "Create New Post"}
      errors={errors}
      setErrors={setErrors}
      problems={(form) => check(form).found}
      onValid={send}
      submitLabel={editing ? "Update Post" : "Create Post"}
      pendingLabel="Saving..."
      pending={save.isPending}
      busy={chosenImage.preparing}
      {...(editing && { cancel: { label: "Cancel", onCancel } })}
    >
      <Field label="Title" name="title" error={errors.title}>
        {(props) => <input {...props} type="text" defaultValue={editing?.title ?? ""} className="admin-input" />}
      </Field>
      <Field label="Email subject (optional)" name="emailSubject" error={errors.emailSubject} hint="Defaults to the title">
        {(props) => <input {...props} type="text" defaultValue={editing?.emailSubject ?? ""} className="admin-input" />}
      </Field>
      <Field
        label="Slug"
        name="slug"
        error={errors.slug}
        hint={
          editing
            ? `The post's address: /blog/${editing.slug}. A new slug leaves the old address redirecting here.`
            : "Leave empty to make one from the title."
        }
      >
        {(props) => (
          <input
            {...props}
            type="text"
            defaultValue={editing?.slug ?? ""}
            placeholder="e.g. cash-is-a-fact"
            autoCapitalize="none"
            spellCheck={false}
            className="admin-input"
          />
        )}
      </Field>
      <TagsField initial={editing?.tags ?? []} error={errors.tags} />
      <Field label="Excerpt" name="excerpt" error={errors.excerpt}>
        {(props) => <textarea {...props} rows={2} defaultValue={editing?.excerpt ?? ""} className="admin-input" />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Category" name="category" error={errors.category}>
          {(props) => <CategorySelect {...props} categories={postCategories} defaultValue={editing?.category ?? ""} />}
        </Field>
        <Field label="Read Time (minutes)" name="readTime" error={errors.readTime}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={minReadTime}
              max={maxReadTime}
              step={1}
              defaultValue={editing?.readTime ?? defaultReadTime}
              className="admin-input"
            />
          )}
        </Field>
      </div>
      <Field
        label="Featured Image"
        name="featuredImage"
        error={errors.featuredImage ?? chosenImage.error}
        hint="PNG, JPEG, WebP, GIF or AVIF, up to 25 MB: photos are scaled down before they are sent."
      >
        {(props) => (
          <input
            {...props}
            type="file"
            accept="image/*"
            className="admin-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              chosenImage.choose(file);
              setErrors((current) => ({ ...current, featuredImage: undefined }));
              // A new picture's subject is somewhere else: its point starts in the middle (set here,
              // not when the scaled-down file arrives, which would undo a click made meanwhile).
              setFocus(file ? null : (editing?.featuredImageFocus ?? null));
            }}
          />
        )}
      </Field>
      <ImageNote image={chosenImage} />
      {preview && <CoverFocusPicker src={preview} focus={focus} onChange={setFocus} />}
      <input type="hidden" name="featuredImageFocus" value={focusFieldValue(focus)} />
      {(image ?? editing?.featuredImage) && (
        <ImageAltFields
          label="Cover Alt Text"
          name="featuredImageAlt"
          decorativeName="featuredImageDecorative"
          stored={editing?.featuredImageAlt}
          error={errors.featuredImageAlt}
        />
      )}
      <div>
        <span id="admin-content-label" className="block text-sm font-bold uppercase tracking-wide">
          Content
        </span>
        <div className="mt-1">
          <RichEditor
            id="admin-content"
            value={content}
            onChange={(html) => {
              setContent(html);
              const form = document.getElementById("admin-post-form");
              if (form instanceof HTMLFormElement) setErrors((shown) => recheckField(shown, "content", check(form, html).found));
            }}
            invalid={Boolean(errors.content)}
            describedBy={errors.content ? "admin-content-error" : undefined}
          />
        </div>
        {errors.content && (
          <p id="admin-content-error" className="mt-1 text-sm font-semibold text-signal-dark">
            {errors.content}
          </p>
        )}
      </div>
      <label className="flex items-center gap-2 font-semibold">
        <input
          type="checkbox"
          name="published"
          checked={publishNow}
          onChange={(event) => setPublishNow(event.target.checked)}
          className="size-5 accent-signal-dark"
        />
        Publish immediately
      </label>
      {!publishNow && (
        <Field
          label="Publish at"
          name="publishAt"
          error={errors.publishAt}
          hint={`Your time (${ownTimeZone()}). The post goes live on its own within a few minutes of it; leave empty to keep a draft.`}
        >
          {(props) => (
            <input {...props} type="datetime-local" defaultValue={toLocalInput(editing?.publishAt ?? null)} className="admin-input sm:max-w-xs" />
          )}
        </Field>
      )}
      <div>
        <label className="flex items-center gap-2 font-semibold">
          <input
            type="checkbox"
            name="sendAsNewsletter"
            defaultChecked={editing?.sendAsNewsletter ?? false}
            aria-describedby="admin-send-as-newsletter-hint"
            className="size-5 accent-signal-dark"
          />
          Email to subscribers when published
        </label>
        <p id="admin-send-as-newsletter-hint" className="mt-1 text-sm text-slate">
          Sent as the newsletter once the post&apos;s page is live on the site (a scheduled post: once it goes live). A post is sent once.
        </p>
      </div>
      <div>
        <label className="flex items-center gap-2 font-semibold">
          <input
            type="checkbox"
            name="commentsClosed"
            defaultChecked={editing != null && "commentsClosed" in editing && editing.commentsClosed === true}
            aria-describedby="admin-comments-closed-hint"
            className="size-5 accent-signal-dark"
          />
          Close comments
        </label>
        <p id="admin-comments-closed-hint" className="mt-1 text-sm text-slate">
          The comments already approved stay under the post; nobody can write a new one. Comments for the whole site: Site Settings.
        </p>
      </div>
    </ItemFormCard>
  );
}
