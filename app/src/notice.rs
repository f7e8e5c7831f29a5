//! Messages the server writes into a link: why a usage export or a pasted benchmark could not be
//! read (`usage_error`, `paste_error`, with the model typed, `usage_model`), what an export
//! measured (`usage_read`), what a paste read (`paste_read`) and what choosing another model
//! dropped (`model_dropped`). A form posted without JavaScript is answered by a redirect, so these
//! travel in the address; anyone could write such a link with words of their own, so the server
//! signs what it wrote (`notice=`, an HMAC-SHA-256 under a key of the deployment's, kept in its
//! database and shared by its replicas) and the page shows a message only under a valid
//! signature. The check is made on the server and travels with the page, as the dataset does.

use leptos::prelude::*;
use leptos::server::codee::string::JsonSerdeWasmCodec;

/// The parameter holding the signature.
pub const PARAM: &str = "notice";

/// The parameters a signature covers: the messages and the model a message names.
pub const SIGNED: [&str; 6] = [
    "usage_error",
    "usage_model",
    "usage_read",
    "paste_error",
    "paste_read",
    "model_dropped",
];

/// The parts of `query` a signature covers: every `name=value` of [`SIGNED`] as the link
/// writes it (still encoded, repeats and empty ones included, in their order), joined by `&`;
/// `None` when none holds a visible value, so that the page, which shows the first non-blank
/// value of each, shows nothing the signature does not cover.
#[cfg(feature = "ssr")]
fn message(query: &str) -> Option<String> {
    let parts: Vec<&str> = query
        .split('&')
        .filter(|p| SIGNED.contains(&p.split('=').next().unwrap_or_default()))
        .collect();
    let shown = parts.iter().any(|p| {
        let (name, value) = p.split_once('=').unwrap_or((p, ""));
        name != "usage_model" && !servecost::codec::decode(value).trim().is_empty()
    });
    shown.then(|| parts.join("&"))
}

/// `query` without its messages and their signature, every other part kept as it is (the
/// benchmark editor's empty cells too): what the page reads of a link whose messages it did not
/// write, and what the server keeps of a link a client sends before it writes its own.
pub fn without(query: &str) -> String {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| {
            let name = p.split('=').next().unwrap_or_default();
            !SIGNED.contains(&name) && name != PARAM
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The signature key of this deployment (server only).
#[cfg(feature = "ssr")]
#[derive(Clone)]
pub struct Key(pub std::sync::Arc<[u8]>);

#[cfg(feature = "ssr")]
impl Key {
    /// HMAC-SHA-256 of `text`, as 32 hexadecimal digits (its first 128 bits).
    fn mac(&self, text: &str) -> String {
        use sha2::{Digest, Sha256};
        const BLOCK: usize = 64;
        let mut key = [0u8; BLOCK];
        if self.0.len() > BLOCK {
            key[..32].copy_from_slice(&Sha256::digest(&self.0));
        } else {
            key[..self.0.len()].copy_from_slice(&self.0);
        }
        let pad = |byte: u8| key.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
        let inner = Sha256::new()
            .chain_update(pad(0x36))
            .chain_update(text.as_bytes())
            .finalize();
        let outer = Sha256::new()
            .chain_update(pad(0x5c))
            .chain_update(inner)
            .finalize();
        outer[..16].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// `query` with its messages signed (any signature it had replaced); unchanged but for an
    /// old signature when it holds no message.
    pub fn sign(&self, query: &str) -> String {
        // Signed as the browser will send it back: encoded as a link's query is.
        let query = crate::query::uri_query(query.trim_start_matches('?'));
        let query: Vec<&str> = query
            .split('&')
            .filter(|p| p.split('=').next() != Some(PARAM) && !p.is_empty())
            .collect();
        let query = query.join("&");
        match message(&query) {
            Some(text) => format!("{query}&{PARAM}={}", self.mac(&text)),
            None => query,
        }
    }

    /// True when `query`'s messages carry this key's signature (or there are none).
    pub fn verifies(&self, query: &str) -> bool {
        let query = query.trim_start_matches('?');
        let Some(text) = message(query) else {
            return true;
        };
        let given = crate::query::get(query, PARAM).unwrap_or_default();
        let wanted = self.mac(&text);
        // Compared in time that does not depend on where they differ.
        given.len() == wanted.len()
            && given
                .bytes()
                .zip(wanted.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

/// Whether the page's messages are the server's own, decided on the server and carried by the
/// page to the browser.
pub type TrustResource = OnceResource<bool, JsonSerdeWasmCodec>;

/// The resource telling whether the messages of the link `query` are signed by this server.
pub fn trusted(query: String) -> TrustResource {
    OnceResource::new_serde_wb(check(query))
}

/// On the server: the key in context checks the link.
#[cfg(feature = "ssr")]
fn check(query: String) -> impl std::future::Future<Output = bool> + Send + 'static {
    let key = use_context::<crate::db::Store>().map(|s| s.notice_key());
    async move { key.is_some_and(|k| k.verifies(&query)) }
}

/// In the browser the answer comes with the page; this future is never awaited there.
#[cfg(not(feature = "ssr"))]
async fn check(_query: String) -> bool {
    false
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn only_signed_messages_are_trusted() {
        let key = Key(std::sync::Arc::from(&b"a key of this deployment's"[..]));
        let other = Key(std::sync::Arc::from(&b"another deployment's"[..]));
        let plain = "tokens=1B&mix=1:1:1";
        assert_eq!(key.sign(plain), plain);
        assert!(key.verifies(plain));
        let signed = key.sign("tokens=1B&usage_error=line%203%3A%20not%20a%20number");
        assert!(signed.contains("&notice="), "{signed}");
        assert!(key.verifies(&signed));
        assert!(!other.verifies(&signed));
        // Another message, or the model it names, under the same signature is refused.
        let forged = signed.replace("line%203", "Call%20us");
        assert!(!key.verifies(&forged));
        assert!(!key.verifies(&format!("{signed}&usage_model=x")));
        assert!(!key.verifies("usage_read=Your%20account%20is%20closed"));
        // The rest of the link may change: the message is still the server's.
        assert!(key.verifies(&format!("{signed}&gpu_hour=3")));
        assert_eq!(without(&forged), "tokens=1B");
        // Signing again replaces the signature.
        assert_eq!(key.sign(&signed), signed);
        // A blank first value before a forged second one is covered too.
        assert!(!key.verifies("usage_read=+&usage_read=Your%20account%20is%20closed"));
        let two = key.sign("usage_read=x&usage_read=y");
        assert!(key.verifies(&two));
        assert!(!key.verifies(&two.replace("usage_read=y", "usage_read=z")));
        // A model typed with the separator of the parts cannot move a signature to other parts.
        let typed = key.sign("usage_error=e&usage_model=x%26usage_read%3DEVIL");
        assert!(!key.verifies(&typed.replace(
            "usage_model=x%26usage_read%3DEVIL",
            "usage_model=x&usage_read=EVIL"
        )));
        // The messages a client sends are taken out before the server writes its own.
        assert_eq!(
            without("pt_tps=&paste_error=Call&pt_tput=5&notice=ab"),
            "pt_tps=&pt_tput=5"
        );
    }
}
