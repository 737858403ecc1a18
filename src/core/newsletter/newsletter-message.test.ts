import { describe, expect, it } from "vitest";
import { classifyDeliveryFailure } from "./newsletter-message.ts";

// The shapes nodemailer rejects with (`responseCode` and `response` from the server's reply).
describe("classifyDeliveryFailure", () => {
  it("treats a 5xx reply as permanent, with the server's reply as the reason", () => {
    const error = Object.assign(new Error("Can't send mail - all recipients were rejected"), {
      code: "EENVELOPE",
      responseCode: 550,
      response: "550 5.1.1 No such user",
    });
    expect(classifyDeliveryFailure(error)).toEqual({ kind: "permanent", reason: "550 5.1.1 No such user" });
  });

  it("treats a 4xx reply to a recipient as transient, and a dropped connection or a timeout as the provider's (a pause, issue 27)", () => {
    expect(classifyDeliveryFailure(Object.assign(new Error("x"), { responseCode: 451, response: "451 4.7.1 Try later" })).kind).toBe("transient");
    expect(classifyDeliveryFailure(Object.assign(new Error("Connection closed unexpectedly"), { code: "ECONNECTION" }))).toEqual({
      kind: "provider",
      reason: "Connection closed unexpectedly",
    });
    expect(classifyDeliveryFailure(Object.assign(new Error("Timeout"), { code: "ETIMEDOUT" })).kind).toBe("provider");
    expect(classifyDeliveryFailure("something odd").kind).toBe("transient");
  });
});
