//! Bringing an import's files in: from the disk or over HTTPS, each within the size caps (one
//! file, and the whole revision), as UTF-8 text without a byte-order mark.

use std::path::Path;

use super::{ImportProblem, Options, FETCH_TIMEOUT, MAX_FILE_BYTES, MAX_REVISION_BYTES};

/// One file as read: its name (or address), its text and its extension.
pub struct Incoming {
    /// The file's path or address, to name it in problems.
    pub name: String,
    /// Its text.
    pub text: String,
    /// Its extension, when it has one.
    pub extension: Option<String>,
}

/// Reads `file` (a path or an `https://` address) within what is left of the revision's
/// `budget`.
pub fn load(file: &str, opts: &Options, budget: &mut u64) -> Result<Incoming, Vec<ImportProblem>> {
    let (name, text, extension) = if is_url(file) {
        let text = fetch_capped(file, opts, budget)?;
        let path = file.split(['?', '#']).next().unwrap_or(file);
        let extension = path.rsplit_once('.').map(|(_, e)| e.to_owned());
        (file.to_owned(), text, extension)
    } else {
        let path = Path::new(file);
        let name = path.display().to_string();
        let text = read_capped(path, &name, budget)?;
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_owned);
        (name, text, extension)
    };
    // A byte-order mark (as spreadsheets and some editors write) is not part of the text.
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    };
    Ok(Incoming {
        name,
        text,
        extension,
    })
}

/// `n` bytes as people read them (`16 MiB`).
pub fn mib(n: u64) -> String {
    format!("{} MiB", n / (1024 * 1024))
}

/// True for an argument naming an address rather than a file.
pub fn is_url(file: &str) -> bool {
    let lower = file.get(..8).unwrap_or(file).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// Plain `http://` only from this machine (a price table served locally): anything fetched
/// from elsewhere comes over TLS.
fn loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or("", |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether `url` is fetched over TLS; refuses plain `http://` from elsewhere than this
/// machine, and an address with credentials in it.
fn check_address(url: &str) -> Result<bool, Vec<ImportProblem>> {
    let fail = |what: String| vec![ImportProblem::new(url, "", "", what)];
    let secure = url
        .get(..8)
        .is_some_and(|p| p.eq_ignore_ascii_case("https://"));
    if !secure && !loopback(url) {
        return Err(fail(
            "plain http:// is fetched only from this machine (localhost): use https://".into(),
        ));
    }
    // The address is recorded in the revision, which /data shows: no credentials in it.
    let authority = url
        .split_once("://")
        .map_or("", |(_, r)| r)
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("");
    if authority.contains('@') {
        return Err(fail(
            "holds a user name or password: the address is shown on /data, so give one without \
             them (download the file and import it instead)"
                .into(),
        ));
    }
    Ok(secure)
}

/// Downloads `url` as [`read_capped`] reads a file: at most [`MAX_FILE_BYTES`] and `budget`,
/// within the timeout, as UTF-8 text. Redirects are followed only to `https://`.
fn fetch_capped(url: &str, opts: &Options, budget: &mut u64) -> Result<String, Vec<ImportProblem>> {
    let fail = |what: String| vec![ImportProblem::new(url, "", "", what)];
    let secure = check_address(url)?;
    let timeout = opts.timeout.unwrap_or(FETCH_TIMEOUT);
    // Over TLS, redirects are followed to https:// only; from this machine, not at all.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .https_only(secure)
        .max_redirects(if secure { 5 } else { 0 })
        .user_agent("servecost-import")
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|e| match e {
        ureq::Error::Timeout(_) => fail(format!(
            "did not arrive within {} s: nothing was imported (try again, or download it and \
             import the file)",
            timeout.as_secs_f64()
        )),
        ureq::Error::StatusCode(code) => fail(format!("the server answered HTTP {code}")),
        ureq::Error::TooManyRedirects => fail(if secure {
            "redirects more than 5 times: give the final address".to_owned()
        } else {
            "redirects: a plain http:// address is fetched as given, never redirected; give the \
             final address"
                .to_owned()
        }),
        other => fail(format!("cannot be fetched: {other}")),
    })?;
    if response.status().is_redirection() {
        return Err(fail(
            "redirects: a plain http:// address is fetched as given, never redirected; give the \
             final address"
                .into(),
        ));
    }
    let cap = MAX_FILE_BYTES.min(*budget);
    let bytes = response
        .body_mut()
        .with_config()
        .limit(cap)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) if cap < MAX_FILE_BYTES => fail(format!(
                "takes the import over {}, the most one revision may bring: import the files \
                 in several runs",
                mib(MAX_REVISION_BYTES)
            )),
            ureq::Error::BodyExceedsLimit(_) => fail(format!(
                "is larger than {}, the most one file may hold: split it",
                mib(MAX_FILE_BYTES)
            )),
            ureq::Error::Timeout(_) => fail(format!(
                "did not arrive within {} s: nothing was imported",
                timeout.as_secs_f64()
            )),
            other => fail(format!("cannot be read: {other}")),
        })?;
    *budget -= bytes.len() as u64;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads a file of at most [`MAX_FILE_BYTES`] and at most `budget` bytes (what is left of
/// [`MAX_REVISION_BYTES`]), without reading further than that whatever the file is (a device
/// such as `/dev/zero` included).
fn read_capped(path: &Path, name: &str, budget: &mut u64) -> Result<String, Vec<ImportProblem>> {
    use std::io::Read as _;
    let fail = |what: String| vec![ImportProblem::new(name, "", "", what)];
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot be read: {e}")))?;
    let cap = MAX_FILE_BYTES.min(*budget);
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot be read: {e}")))?;
    let len = bytes.len() as u64;
    if len > MAX_FILE_BYTES {
        return Err(fail(format!(
            "is larger than {}, the most one file may hold: split it",
            mib(MAX_FILE_BYTES)
        )));
    }
    if len > *budget {
        return Err(fail(format!(
            "takes the import over {}, the most one revision may bring: import the files in \
             several runs",
            mib(MAX_REVISION_BYTES)
        )));
    }
    *budget -= len;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}
