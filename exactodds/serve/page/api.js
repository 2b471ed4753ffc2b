// The page's dealings with the server and with files (docs/page.md): a request and the server's refusal (api,
// ApiError), an exact fraction as a percentage (percentText), the coups as CSV (csvCell, csvText) and a file saved
// from the page (download). No state, and nothing drawn.

/** A refusal of the server (its one line, `{"error": ...}`), or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** One request to this server: the JSON answer, or an ApiError with the server's line. */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method, cache: "no-store", headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, `the server did not answer (is exactodds serve running?): ${err.message}`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const line = data && typeof data.error === "string" ? data.error : `the server answered ${response.status}`;
    throw new ApiError(response.status, line);
  }
  return data;
}

/** "n/d" as a percentage with `places` decimals, rounded half away from zero, in integers (as the server does). */
export function percentText(fraction, places = 4) {
  const [top, bottom = "1"] = String(fraction).split("/");
  let n = BigInt(top);
  const d = BigInt(bottom);
  const negative = n < 0n;
  if (negative) n = -n;
  const scaled = (2n * n * 100n * 10n ** BigInt(places) + d) / (2n * d);
  const digits = scaled.toString().padStart(places + 1, "0");
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  return `${negative && scaled !== 0n ? "-" : ""}${text}%`;
}

/** A CSV cell: quoted when it must be, and a leading = + - @ (or tab, CR) made text, so no spreadsheet runs it. */
export function csvCell(value) {
  let text = String(value ?? "");
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The coups as CSV: coup, winner, cards. */
export function csvText(coups) {
  const lines = [["coup", "winner", "cards"], ...coups.map((c) => [c.coup, c.winner, c.text])];
  return lines.map((line) => line.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
