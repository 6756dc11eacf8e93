/** What the fake payment service's handlers answer with, and the proxy page it fails with. */

export const HTML_502 =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n";

/** One HTTP answer: status, body, content type. */
export type Reply = { status: number; body: string; type: string };

export function reply(status: number, body: string, type = "application/json"): Reply {
  return { status, body, type };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
