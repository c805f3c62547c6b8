// What `/` answers when the console's files have not been built: how to build them.
export const NOT_BUILT_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Console not built · Automation service</title>
<style>
  body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2330; background: #f6f7fb; margin: 0; }
  main { max-width: 600px; margin: 12vh auto; background: #fff; border: 1px solid #dfe2ea; border-radius: 12px; padding: 32px 36px; }
  h1 { font-size: 22px; margin: 0 0 12px; }
  code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 14px; }
  pre { background: #f1f3f8; padding: 12px 14px; border-radius: 8px; }
  a { color: #3b4bc8; }
</style>
</head>
<body>
<main>
  <h1>The console has not been built</h1>
  <p>The API is running, but the web console's files are missing. Build them in the project folder:</p>
  <pre>npm run build:web</pre>
  <p>then reload this page. (<code>npm start</code> builds them for you.)</p>
  <p>The API itself is described at <a href="/docs">/docs</a>.</p>
</main>
</body>
</html>
`;
