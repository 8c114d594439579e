/**
 * One page of a list and the list's count, read at the same time. A page past the end (the list
 * shrank since the link was made) is read again as the last one, so it costs a second round trip
 * only then.
 */
export async function readPage<Row>(options: {
  /** The page asked for (1 when missing or not a page number). */
  asked: number | undefined;
  size: number;
  /** The count query, as `select({ total: count() })` gives it. */
  count: () => PromiseLike<Array<{ total: number }>>;
  rows: (offset: number) => PromiseLike<Row[]>;
}) {
  const { size } = options;
  const asked = Math.max(1, Math.trunc(options.asked ?? 1) || 1);
  const [[{ total } = { total: 0 }], askedRows] = await Promise.all([options.count(), options.rows((asked - 1) * size)]);
  const pageCount = Math.max(1, Math.ceil(total / size));
  const page = Math.min(asked, pageCount);
  const rows = page === asked ? askedRows : await options.rows((page - 1) * size);
  return { rows, total, page, pageCount };
}
