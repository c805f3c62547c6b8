// Uploads a body with Node's fetch from its own process, as a real client does: in the
// server's process the two sides share one event loop, which hides the race between the
// server's early answer and the client still sending. Prints one JSON line per attempt:
// {status, code} when an answer arrived, {error} when fetch failed.
// Usage: node upload-client.mjs '{"url", "headers", "bytes", "chunked", "times"}'
const { url, headers, bytes, chunked, times } = JSON.parse(process.argv[2]);
const body = Buffer.alloc(bytes, 'a');
const MIB = 1024 * 1024;
const { ReadableStream } = globalThis;

function chunkedBody() {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const chunk = body.subarray(sent, Math.min(bytes, sent + MIB));
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

for (let i = 0; i < times; i += 1) {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: chunked ? chunkedBody() : body, duplex: 'half' });
    const text = await response.text();
    let code;
    try {
      code = JSON.parse(text).details?.code;
    } catch {
      code = undefined;
    }
    console.log(JSON.stringify({ status: response.status, code }));
  } catch (error) {
    console.log(JSON.stringify({ error: error.cause?.code ?? error.message }));
  }
}
