/** One rendered email, ready for the transport: the subject line and its HTML and plain-text parts. */
export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}
