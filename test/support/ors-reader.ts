// The ORS clients' SSE reader (ors.client._http._parse_sse_events at
// openrewardstandard/python-sdk@a399408; openreward 0.1.112 reads alike), as it treats a
// stream: events without an `event:` line dropped, comments skipped, every data value
// stripped of its leading whitespace, a line over 128 KiB an error.
export function readLikeOrsClient(stream: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let event: string | null = null;
  let data: string[] = [];
  for (const raw of stream.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '') {
      if (event) out.push([event, data.join('\n')]);
      event = null;
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    if (line.length > 128 * 1024) throw new Error('line over 128 KiB');
    const i = line.indexOf(':');
    const field = line.slice(0, i);
    const value = line.slice(i + 1).replace(/^\s+/, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return out;
}
