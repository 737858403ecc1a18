/**
 * What the user reads when the dashboard's own check and the server's agree: one wording for both,
 * so a message never depends on which side caught the problem first.
 */

/** A call under an ended session (the server's 401 and the dashboard's login form). */
export const sessionExpiredMessage = "Your session has expired. Please log in again.";

/** A resource saved without its file (SPEC §8). */
export const missingFileMessage = "Please select a file to upload.";

/** A resource that was deleted meanwhile. */
export const resourceGoneMessage = "This resource no longer exists.";

/** A file over the upload limit (`maxFileBytes`). */
export const fileTooLargeMessage = "The file is too large (the limit is 4 MB)";

/** A chosen image over what the dashboard scales down (`maxChosenImageBytes`). */
export const chosenImageTooLargeMessage = "The image is too large (the limit is 25 MB)";

/** A whole request over `maxFormBytes`. */
export const formTooLargeMessage = "The upload is too large (the limit is 4 MB)";

export const imageTypeMessage = "Only PNG, JPEG, WebP, GIF or AVIF images are allowed";

export const resourceTypeMessage = "Only PDF, Word, Excel, PowerPoint or ZIP files are allowed (pdf, doc, docx, xls, xlsx, ppt, pptx, zip)";
