//! The years ahead: how long the plan runs, how the volume grows, how prices move, and the
//! discount rate of the present values.

use leptos::prelude::*;

use crate::components::inputs::Ctx;
use crate::components::Field;

/// The section.
#[component]
pub fn YearsInputs(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let on_change = ctx.on_change;
    view! {
        <fieldset data-testid="years-inputs">
            <legend>"Over the years"</legend>
            <p class="hint">"Blank fields hold volumes and prices as today, servecost's assumption: a forecast is yours to make. Rates are yearly: 50\u{a0}% grows by half each year, −20\u{a0}% falls by a fifth. "<a href="/method#years">"How the plan is costed"</a></p>
            <Field name="horizon" value=ctx.typed("horizon") placeholder=ctx.in_force("horizon") outcome=ctx.outcome on_change
                explain="How far ahead the plan runs, month by month."/>
            <Field name="growth" value=ctx.typed("growth") placeholder=ctx.in_force("growth") outcome=ctx.outcome on_change
                explain="How much the monthly volume grows each year (negative for a decline)."/>
            <Field name="api_trend" value=ctx.typed("api_trend") placeholder=ctx.in_force("api_trend") outcome=ctx.outcome on_change
                explain="How the API's prices change each year (negative for a fall)."/>
            <Field name="gpu_trend" value=ctx.typed("gpu_trend") placeholder=ctx.in_force("gpu_trend") outcome=ctx.outcome on_change
                explain="How GPU-hour prices, and the capex of GPUs bought later, change each year. A reserved block keeps the price of the month it was reserved."/>
            <Field name="discount_rate" value=ctx.typed("discount_rate") placeholder=ctx.in_force("discount_rate") outcome=ctx.outcome on_change
                explain="What a dollar a year from now is worth less than one today: the present values use it."/>
            <Field name="residual" value=ctx.typed("residual") placeholder=ctx.in_force("residual") outcome=ctx.outcome on_change
                explain="What owned GPUs are worth at the horizon's end, as a share of their price: credited in the present value with commitments. None is assumed: no source gives a resale price years ahead."/>
        </fieldset>
    }
}
