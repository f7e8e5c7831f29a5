//! The load profile editor's fields: peak hours at a multiple of the average, or the user's own
//! 24 or 168 weights. They are not link parameters: with the select's choice they make the
//! link's `profile` (`peak:3:9-17:weekdays`, or the weights), in the browser as they are typed
//! and on the server from a form sent without JavaScript. The codec checks what they make and
//! names `profile` in its message.

/// The editor's form fields.
pub const FIELDS: [&str; 5] = [
    "peak_factor",
    "peak_from",
    "peak_to",
    "peak_weekdays",
    "profile_weights",
];

/// The select's choice that opens the peak-hours fields.
pub const PEAK: &str = "peak";
/// The select's choice that opens the weights box.
pub const CUSTOM: &str = "custom";

/// The peak hours a blank field stands for: a peak at three times the average on weekdays
/// 09:00 to 17:00, the shape infra leads describe most (the form says so beside the fields).
pub const PEAK_DEFAULTS: (&str, &str, &str) = ("3", "9", "17");

/// The link's `profile` for the select's `choice` and the editor's `field` values (`None`:
/// the choice is a preset, and the link takes it as it is). A blank field takes its default; a
/// checkbox sends `on` when ticked.
pub fn profile_text(choice: &str, field: impl Fn(&str) -> Option<String>) -> Option<String> {
    let value = |name: &str, default: &str| {
        field(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| default.to_owned())
    };
    match choice {
        PEAK => {
            let (factor, from, to) = PEAK_DEFAULTS;
            let weekdays = field("peak_weekdays").is_some_and(|v| !v.is_empty() && v != "0");
            Some(format!(
                "peak:{}:{}-{}{}",
                value("peak_factor", factor).trim_end_matches(['x', '×', ' ']),
                value("peak_from", from),
                value("peak_to", to),
                if weekdays { ":weekdays" } else { "" }
            ))
        }
        CUSTOM => Some(weights(&field("profile_weights").unwrap_or_default())),
        _ => None,
    }
}

/// Weights as pasted from a spreadsheet (one per line, or separated by commas, semicolons, tabs
/// or spaces) as the link writes them: separated by commas.
pub fn weights(text: &str) -> String {
    text.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn the_fields_make_the_links_profile() {
        let peak = [
            ("peak_factor", "3x"),
            ("peak_from", "9"),
            ("peak_to", "17"),
            ("peak_weekdays", "on"),
        ];
        assert_eq!(
            profile_text(PEAK, form(&peak)).as_deref(),
            Some("peak:3:9-17:weekdays")
        );
        assert_eq!(
            profile_text(PEAK, form(&[("peak_factor", "2.5")])).as_deref(),
            Some("peak:2.5:9-17")
        );
        let pasted = "1\n2\t3; 4,5";
        assert_eq!(
            profile_text(CUSTOM, form(&[("profile_weights", pasted)])).as_deref(),
            Some("1,2,3,4,5")
        );
        assert_eq!(profile_text("business", form(&peak)), None);
    }
}
