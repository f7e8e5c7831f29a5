//! The years ahead: how long the plan runs, how the volume grows, how prices move, and the
//! discount rate of the present values.

use leptos::prelude::*;

use crate::components::inputs::{Ctx, Param};

/// The section.
#[component]
pub fn YearsInputs(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    view! {
        <fieldset data-testid="years-inputs">
            <legend>"Over the years"</legend>
            <p class="hint">"Blank fields hold volumes and prices as today, servecost's assumption: a forecast is yours to make. Rates are yearly: 50\u{a0}% grows by half each year, −20\u{a0}% falls by a fifth. "<a href="/method#years">"How the plan is costed"</a></p>
            <Param ctx name="horizon"
                explain="How far ahead the plan runs, month by month."/>
            <Param ctx name="growth"
                explain="How much the monthly volume grows each year (negative for a decline), or each month: 8 %/month. Write the % sign: a bare 5 means 500 % a year."/>
            <Param ctx name="api_trend"
                explain="How the API's prices change each year (negative for a fall)."/>
            <Param ctx name="gpu_trend"
                explain="How GPU-hour prices, and the capex of GPUs bought later, change each year. A reserved block keeps the price of the month it was reserved."/>
            <Param ctx name="discount_rate"
                explain="What a dollar a year from now is worth less than one today: the present values use it."/>
            <Param ctx name="residual"
                explain="What owned GPUs are worth at the horizon's end, as a share of their price: credited in the present value with commitments. None is assumed: no source gives a resale price years ahead."/>
        </fieldset>
    }
}
