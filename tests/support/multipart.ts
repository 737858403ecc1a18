/** Form fields for a test upload: text or a file; an `undefined` value leaves the field out. */
export type FormFields = Record<string, string | Blob | undefined>;

/** A `FormData` with `fields` in order, without the `undefined` ones. */
export function formData(fields: FormFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form;
}

/**
 * A multipart request body as bytes with its content type (boundary included), spread into a
 * `RequestInit`'s `body` and `headers`. Serialized first, as a body arrives over the network:
 * undici's own FormData stream throws unhandled when a request is answered (401, 403, 413)
 * without its body being read to the end.
 */
export async function multipartBody(form: FormData | FormFields): Promise<{ body: ArrayBuffer; contentType: string }> {
  const encoded = new Response(form instanceof FormData ? form : formData(form));
  return { body: await encoded.arrayBuffer(), contentType: encoded.headers.get("content-type") ?? "" };
}
