//! The inputs: one plain GET form (it works without JavaScript) whose fields update the page live
//! once hydrated. The common question is answered by the defaults; advanced inputs are folded.

mod benchmark;
mod load;
mod model;
mod renting;
mod self_hosting;
mod workload;
mod years;

use leptos::prelude::*;
use servecost::codec::decode;
use servecost::Dataset;

use crate::components::Field;
use crate::query::{self, Outcome};
use crate::values::in_force;

pub use model::{switched, ModelChoice};
pub use renting::Renting;
pub use self_hosting::SelfHosting;
pub use workload::WorkloadInputs;
pub use years::YearsInputs;

/// The field of numeric parameter `name`, bound to the inputs: its text as typed in the link,
/// the value in force as its placeholder, its error from the answer, its edits to the link.
/// Its label, unit and accepted range come from the codec's table.
#[component]
pub fn Param(
    /// The inputs it belongs to.
    ctx: Ctx,
    /// Its query parameter.
    name: &'static str,
    /// A line of explanation under the field.
    #[prop(optional)]
    explain: Option<&'static str>,
    /// Label, for a parameter outside the codec's numeric table.
    #[prop(optional)]
    label: Option<&'static str>,
    /// Unit, for a parameter outside the codec's numeric table.
    #[prop(optional)]
    unit: Option<&'static str>,
    /// Whether to say servecost's assumption for it, from its definition.
    #[prop(optional)]
    assumed: bool,
) -> impl IntoView {
    view! {
        <Field name value=ctx.typed(name) placeholder=ctx.in_force(name) outcome=ctx.outcome
            on_change=ctx.on_change nostrip:explain=explain nostrip:label=label nostrip:unit=unit
            assumed/>
    }
}

/// What every input section needs.
#[derive(Clone, Copy)]
pub struct Ctx {
    /// The query string.
    pub query: Signal<String>,
    /// The current outcome.
    pub outcome: Memo<Outcome>,
    /// The report on screen.
    pub report: Memo<Option<crate::query::Answer>>,
    /// The dataset.
    pub data: StoredValue<Dataset>,
    /// Called with a parameter and its new text.
    pub on_change: Callback<(&'static str, String)>,
    /// Pasted benchmark text a form submitted without JavaScript could not read, and why.
    pub kept_paste: RwSignal<Option<(String, String)>>,
    /// A usage export the server could not read: the model typed for it, and why.
    pub kept_usage: StoredValue<Option<(String, String)>>,
    /// What the server read from a usage export just now, for the import to say.
    pub usage_read: StoredValue<Option<String>>,
    /// What choosing another model dropped, as the server wrote it.
    pub model_dropped: StoredValue<Option<String>>,
    /// What the server read from a paste just now, as it wrote it.
    pub paste_read: StoredValue<Option<String>>,
    /// The folded sections the link opens ([`crate::form::FOLDS`], from its `open=`).
    pub opened: StoredValue<Vec<&'static str>>,
}

impl Ctx {
    /// The text of `name`: as typed in the link, or the value in force.
    pub fn text(self, name: &'static str) -> Signal<String> {
        Signal::derive(move || {
            self.query
                .with(|q| query::get(q, name))
                .map(|v| decode(&v))
                .unwrap_or_else(|| {
                    self.outcome.with(|o| {
                        self.report
                            .with(|r| in_force(name, &o.scenario, r.as_deref()))
                    })
                })
        })
    }

    /// The text of `name` as typed in the link (empty when the link leaves it out): what a
    /// field holds, so that a form submitted without JavaScript sends only what was typed.
    pub fn typed(self, name: &'static str) -> Signal<String> {
        Signal::derive(move || {
            self.query
                .with(|q| query::get(q, name))
                .map(|v| decode(&v))
                .unwrap_or_default()
        })
    }

    /// The value in force for `name` when the link leaves it out, from the current inputs (no
    /// stale figure while they have no answer): a field's placeholder.
    pub fn in_force(self, name: &'static str) -> Signal<String> {
        Signal::derive(move || {
            self.outcome
                .with(|o| in_force(name, &o.scenario, o.report.as_deref().ok()))
        })
    }

    /// Whether a folded section of the form opens: when one of its `params` is set in the link
    /// (to something other than its default word) or named by a problem, so that a value to
    /// check or fix is never hidden. Once open it stays open: a section never folds away under
    /// the field being typed in.
    pub fn unfolded(self, params: Vec<&'static str>) -> Signal<bool> {
        let wanted = Signal::derive(move || {
            let set = self.query.with(|q| {
                params.iter().any(|p| {
                    query::get(q, p).is_some_and(|v| {
                        let v = decode(&v);
                        !(*p == "scaling" && v == "fixed"
                            || *p == "hybrid" && servecost::codec::FLAG_ON.contains(&v.as_str()))
                    })
                })
            });
            set || self
                .outcome
                .with(|o| o.all_problems().any(|p| params.contains(&p.param.as_str())))
        });
        Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || wanted.get()).into()
    }

    /// The model of the scenario: the link's, else the dataset's first (known even when the
    /// inputs have no answer, so that the form's choices never empty).
    pub fn model(self) -> String {
        let given = self.outcome.with(|o| o.scenario.model.clone());
        given
            .or_else(|| {
                self.data
                    .with_value(|d| d.models.first().map(|m| m.id.clone()))
            })
            .unwrap_or_default()
    }

    /// A link to the calculator with `set` applied and `remove` removed.
    pub fn link(self, set: &[(&str, &str)], remove: &[&str]) -> String {
        query::href(&self.query.with(|q| query::edit(q, set, remove)))
    }
}

/// A folded section of the form. Its fields are made when it first opens, not sent with every
/// page: when a person opens it, when one of its `params` is set or has a problem
/// ([`Ctx::unfolded`]), or when the link names it (`open=`). Until then it holds those of its
/// parameters the link sets as hidden fields, and a button that submits the form with the
/// section named (`open=`), so that what was typed elsewhere is kept: the way in for a page
/// without JavaScript.
#[component]
pub fn Fold(
    /// What the sections share.
    ctx: Ctx,
    /// Its name in [`crate::form::FOLDS`].
    name: &'static str,
    /// The line that opens it.
    summary: &'static str,
    /// The parameters of its fields.
    params: Vec<&'static str>,
    /// Test id of the section.
    #[prop(optional)]
    testid: Option<&'static str>,
    /// Its fields.
    children: ChildrenFn,
) -> impl IntoView {
    let by_link = ctx.opened.with_value(|o| o.contains(&name));
    let unfolded = ctx.unfolded(params.clone());
    let made = RwSignal::new(by_link || unfolded.get_untracked());
    let details = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        // Opened before the page came alive, its toggle was missed: made now.
        if unfolded.get() || details.get_untracked().is_some_and(|d| d.open()) {
            made.set(true);
        }
    });
    let params = StoredValue::new(params);
    let placeholder = move || {
        // For a form sent without JavaScript: the page as served's, not followed as it changes.
        let kept = ctx.query.with_untracked(|q| {
            params.with_value(|ps| {
                ps.iter()
                    .filter_map(|p| query::get(q, p).map(|v| (*p, decode(&v))))
                    .collect::<Vec<_>>()
            })
        });
        view! {
            <button type="submit" class="fold-open" name="open" value=name
                formaction=format!("/#fold-{name}") aria-label=format!("Show these inputs: {summary}")
                data-testid="fold-open">"Show these inputs"</button>
            {kept.into_iter().map(|(k, v)| view! { <input type="hidden" name=k value=v/> }).collect_view()}
        }
    };
    view! {
        <details id=format!("fold-{name}") node_ref=details open=move || by_link || unfolded.get()
            data-testid=testid
            on:toggle=move |_| {
                if details.get_untracked().is_some_and(|d| d.open()) {
                    made.set(true);
                }
            }>
            <summary>{summary}</summary>
            {move || if made.get() { children().into_any() } else { placeholder().into_any() }}
        </details>
    }
}

/// Every parameter of the link not shown as a field, carried along as hidden fields so a form
/// submitted without JavaScript keeps the whole scenario.
#[component]
pub fn Hidden(
    /// The query string.
    query: Signal<String>,
    /// Parameters the form shows itself.
    shown: Signal<Vec<&'static str>>,
) -> impl IntoView {
    move || {
        let shown = shown.get();
        query.with(|q| {
            query::pairs(q)
                .into_iter()
                .filter(|(k, _)| !shown.contains(&k.as_str()))
                .map(|(k, v)| view! { <input type="hidden" name=k value=decode(&v)/> })
                .collect_view()
        })
    }
}

/// The whole form.
#[component]
pub fn Inputs(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    // The fields shown submit themselves; every other parameter of the link rides along hidden.
    let shown = Signal::derive(move || {
        ctx.query
            .with(|q| ctx.outcome.with(|o| visible(&o.scenario, q)))
    });
    // The model's form and the scenario's stack in the layout's first column.
    view! {
        <div class="input-column">
        <ModelChoice ctx/>
        <form class="inputs" id="inputs" method="get" action="/" on:submit=|ev| ev.prevent_default()>
            // The form's default button (Enter in a field): updating, not a folded section's
            // button, which comes before the visible one.
            <button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true"></button>
            <h2>"Your workload and prices"</h2>
            <WorkloadInputs ctx/>
            <Renting ctx/>
            <SelfHosting ctx/>
            <YearsInputs ctx/>
            <Hidden query=ctx.query shown/>
            // The sections opened by the form stay open when it is sent again.
            {ctx.opened.get_value().into_iter().map(|name| view! { <input type="hidden" name="open" value=name/> }).collect_view()}
            <button type="submit" class="update">"Update"</button>
        </form>
        // A usage export posts apart (a file, with the link it changes), to the server, which
        // reads it and answers with the scenario: its fields sit in the workload section, and
        // the form itself takes no place in the layout.
        <form id="usage-form" method="post" action="/usage" enctype="multipart/form-data" hidden>
            <input type="hidden" name="query" value=ctx.query.get_untracked() prop:value=move || ctx.query.get()/>
        </form>
        </div>
    }
}

/// Parameters whose fields the form shows for scenario `s` read from query `q`: every number of
/// the form's sections (the workload's in the form it is given in, owned hardware's with owned
/// hardware), and the choices the form holds.
pub fn visible(s: &servecost::Scenario, q: &str) -> Vec<&'static str> {
    use servecost::codec::{numbers, Section, Slot};
    use servecost::workload::Workload;
    let owned = self_hosting::wants_owned(q);
    let mut v: Vec<&'static str> = numbers()
        .filter(|spec| Section::ALL.contains(&spec.section))
        .filter(|spec| match spec.slot {
            Some(Slot::Workload { get, .. }) => get(&s.workload).is_some(),
            Some(Slot::Owned { .. }) => owned,
            // With owned hardware the rented price rides along hidden, for the way back.
            _ => !(owned && spec.name == "gpu_hour"),
        })
        .map(|spec| spec.name)
        .collect();
    v.extend(match s.workload {
        Workload::Requests { .. } => &["workload"][..],
        Workload::Mix { .. } => &["mix"][..],
        Workload::Totals { .. } => &[][..],
    });
    v.extend([
        "profile",
        "api",
        "own",
        "scaling",
        "hybrid",
        "curve",
        "curve_mix",
    ]);
    if query::get(q, "gpu_hour").is_some() && !owned {
        v.push("gpu_kind");
    }
    if self_hosting::wants_own_curve(q) {
        v.extend(["points", "chip"]);
        if query::get(q, "chip").is_some_and(|c| decode(&c) == servecost::codec::OTHER_CHIP) {
            v.push("chip_name");
        }
    }
    v
}
