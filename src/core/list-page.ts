/** A slice of a long list: `limit` rows of page `page` (pages count from 1). */
export interface ListPage {
  limit: number;
  page: number;
}

/** The most rows one page of an API list answers. */
export const maxListLimit = 100;

/** The SQL `LIMIT`/`OFFSET` values for a page. */
export const limitOffset = ({ limit, page }: ListPage): [number, number] => [limit, (page - 1) * limit];
