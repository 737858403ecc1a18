// ua-parser-js v1 ships no types (v2 does, under AGPL); the one call used here.
declare module "ua-parser-js" {
  export class UAParser {
    constructor(userAgent?: string);
    getDevice(): { type?: string; vendor?: string; model?: string };
  }
}
