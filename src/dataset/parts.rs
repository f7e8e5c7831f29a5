//! The parts of the dataset a page carries: one model's curves and offers, and of those the
//! ones a scenario reads and the cheapest others, with what was left out counted.

use super::*;

impl Dataset {
    /// The part of the dataset a scenario of `model` can reach: every source, model, chip, price
    /// tier and headline, and only that model's curves and API offers (the bulk of a large
    /// dataset). Evaluating any scenario of `model` on it gives what it gives on the whole.
    /// `None` keeps the first model's, as a scenario without `model=` does.
    pub fn for_model(&self, model: Option<&str>) -> Dataset {
        let Some(keep) = model.or(self.models.first().map(|m| m.id.as_str())) else {
            return self.clone();
        };
        let reach = self.reach();
        Dataset {
            revision: self.revision,
            sources: self.sources.clone(),
            models: self.models.clone(),
            chips: self.chips.clone(),
            price_tiers: self.price_tiers.clone(),
            api_offers: self
                .api_offers
                .iter()
                .filter(|o| o.model == keep)
                .cloned()
                .collect(),
            curves: self
                .curves
                .iter()
                .filter(|c| c.model == keep)
                .cloned()
                .collect(),
            headlines: self.headlines.clone(),
            as_of: self.as_of.clone(),
            offers_left_out: self.offers_left_out,
            tiers_left_out: self.tiers_left_out.clone(),
            reach,
            offer_defaults: self.offer_defaults.clone(),
        }
    }

    /// What the dataset holds of each model, in the models' order (for a part made by
    /// [`Dataset::for_model`], what the whole held).
    pub fn reach(&self) -> Vec<Reach> {
        if !self.reach.is_empty() {
            return self.reach.clone();
        }
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.models
            .iter()
            .map(|m| {
                let mut chips: Vec<String> = Vec::new();
                let mut curves = 0;
                for c in self.curves.iter().filter(|c| c.model == m.id) {
                    curves += 1;
                    if !chips.contains(&c.chip) {
                        chips.push(c.chip.clone());
                    }
                }
                let offers: Vec<&ApiOffer> =
                    self.api_offers.iter().filter(|o| o.model == m.id).collect();
                let mut providers: Vec<&str> = offers
                    .iter()
                    .map(|o| o.provider.as_deref().unwrap_or(o.id.as_str()))
                    .collect();
                providers.sort_unstable();
                providers.dedup();
                Reach {
                    model: m.id.clone(),
                    chips,
                    curves: count(curves),
                    offers: count(offers.len()),
                    providers: count(providers.len()),
                }
            })
            .collect()
    }

    /// The part of the dataset a page for `s` carries: [`Dataset::for_model`] with at most
    /// [`PAGE_OFFERS`] of the model's API offers, so that a page stays the same size however
    /// many offers the dataset holds. Kept are the offers the answer reads (the scenario's own,
    /// the model's first, which a link without `api=` takes, and the one with the largest
    /// stated cache discount, which a caveat names), then the cheapest others for `s`'s
    /// volumes ([`Dataset::offers_by_cost`]); at most [`PAGE_TIERS`] GPU-hour prices of each
    /// chip; and the sources the rows kept cite, with those the engine names itself. Evaluating `s` on it
    /// gives what it gives on the whole; the ranking of options on it ranks the rows kept.
    pub fn for_page(&self, s: &crate::Scenario) -> Dataset {
        let mut page = self.for_model(s.model.as_deref());
        page.keep_offers(s);
        page.keep_tiers(s);
        for c in &mut page.curves {
            c.point_sources = Vec::new();
        }
        // The sources the rows kept cite, and those the engine names itself.
        let mut keep: std::collections::HashSet<String> = page.cited().into_iter().collect();
        keep.insert(ASSUMPTIONS_SOURCE.to_owned());
        keep.extend(
            crate::workload::Preset::ALL
                .iter()
                .map(|p| p.source().to_owned()),
        );
        page.sources.retain(|src| keep.contains(&src.key));
        page
    }

    /// Keeps at most [`PAGE_OFFERS`] API offers (those `s`'s answer reads, then each provider's
    /// cheapest for its volumes, then the cheapest others) and counts the others.
    fn keep_offers(&mut self, s: &crate::Scenario) {
        if self.api_offers.len() <= PAGE_OFFERS {
            return;
        }
        let Some(model) = self.api_offers.first().map(|o| o.model.clone()) else {
            return;
        };
        let named = |o: &&ApiOffer| Some(o.id.as_str()) == s.api.as_deref();
        let discount = self
            .api_offers
            .iter()
            .filter(|o| o.cache_discount_stated && o.cache_discount > 0.0)
            .max_by(|a, b| a.cache_discount.total_cmp(&b.cache_discount))
            .map(|o| o.id.clone());
        let mut keep: Vec<String> = Vec::with_capacity(PAGE_OFFERS);
        let first = self.default_offer(&model).map(|o| o.id.clone());
        if let Some(id) = &first {
            self.offer_defaults.insert(model.clone(), id.clone());
        }
        for id in [
            self.api_offers.iter().find(named).map(|o| o.id.clone()),
            first,
            discount,
        ]
        .into_iter()
        .flatten()
        {
            if !keep.contains(&id) {
                keep.push(id);
            }
        }
        // Every provider's cheapest offer first, so that the ranking covers every provider
        // (as far as the page holds them), then the cheapest others.
        let by_cost = self.offers_by_cost(&model, &s.workload.volumes(), s.batch);
        let provider = |o: &ApiOffer| o.provider.clone().unwrap_or_else(|| o.id.clone());
        let mut covered: Vec<String> = self
            .api_offers
            .iter()
            .filter(|o| keep.contains(&o.id))
            .map(provider)
            .collect();
        for o in &by_cost {
            if keep.len() >= PAGE_OFFERS {
                break;
            }
            let p = provider(o);
            if !covered.contains(&p) {
                covered.push(p);
                keep.push(o.id.clone());
            }
        }
        for o in by_cost {
            if keep.len() >= PAGE_OFFERS {
                break;
            }
            if !keep.contains(&o.id) {
                keep.push(o.id.clone());
            }
        }
        let (kept, left): (Vec<ApiOffer>, Vec<ApiOffer>) = std::mem::take(&mut self.api_offers)
            .into_iter()
            .partition(|o| keep.contains(&o.id));
        self.api_offers = kept;
        self.offers_left_out = self
            .offers_left_out
            .saturating_add(u32::try_from(left.len()).unwrap_or(u32::MAX));
    }

    /// Keeps at most [`PAGE_TIERS`] price tiers of each chip (its default, `s`'s, the cheapest
    /// of each commitment kind, then the cheapest others) and counts the others by chip.
    fn keep_tiers(&mut self, s: &crate::Scenario) {
        let mut chips: Vec<&str> = Vec::new();
        for t in &self.price_tiers {
            if !chips.contains(&t.chip.as_str()) {
                chips.push(&t.chip);
            }
        }
        // The page's hot path: a dataset of short lists is left as it is, untouched.
        let long =
            |chip: &&str| self.price_tiers.iter().filter(|t| t.chip == *chip).count() > PAGE_TIERS;
        if !chips.iter().any(long) {
            return;
        }
        let mut keep: std::collections::HashSet<(String, String)> = Default::default();
        for chip in chips {
            let mut tiers: Vec<&PriceTier> =
                self.price_tiers.iter().filter(|t| t.chip == chip).collect();
            if tiers.len() <= PAGE_TIERS {
                keep.extend(tiers.iter().map(|t| (t.chip.clone(), t.tier.clone())));
                continue;
            }
            tiers.sort_by(|a, b| a.usd_per_gpu_hour.total_cmp(&b.usd_per_gpu_hour));
            let mut kept: Vec<&PriceTier> = Vec::with_capacity(PAGE_TIERS);
            let default = self.default_tier(chip);
            let named = tiers
                .iter()
                .copied()
                .find(|t| Some(t.tier.as_str()) == s.gpu_tier.as_deref());
            let mut kinds = Vec::new();
            let cheapest_of_kinds = tiers.iter().copied().filter(|t| {
                let new = !kinds.contains(&t.kind);
                kinds.push(t.kind);
                new
            });
            let chosen: Vec<&PriceTier> = default
                .into_iter()
                .chain(named)
                .chain(cheapest_of_kinds)
                .collect();
            for t in chosen.into_iter().chain(tiers.iter().copied()) {
                if kept.len() >= PAGE_TIERS {
                    break;
                }
                if !kept.iter().any(|k| k.tier == t.tier) {
                    kept.push(t);
                }
            }
            keep.extend(kept.iter().map(|t| (t.chip.clone(), t.tier.clone())));
        }
        let (kept, left): (Vec<PriceTier>, Vec<PriceTier>) = std::mem::take(&mut self.price_tiers)
            .into_iter()
            .partition(|t| keep.contains(&(t.chip.clone(), t.tier.clone())));
        self.price_tiers = kept;
        for t in &left {
            let n = self.tiers_left_out.entry(t.chip.clone()).or_default();
            *n = n.saturating_add(1);
        }
    }

    /// Every source key a row of the dataset cites.
    fn cited(&self) -> Vec<String> {
        let mut keys = Vec::new();
        for m in &self.models {
            keys.push(m.licence_source.clone());
            keys.extend(m.weights.iter().map(|w| w.source.clone()));
        }
        for c in &self.chips {
            keys.push(c.memory_source.clone());
            keys.extend(c.accelerator_kw_source.clone());
            keys.extend(c.all_in_kw_source.clone());
            keys.extend(c.compute_source.clone());
        }
        keys.extend(self.price_tiers.iter().map(|t| t.source.clone()));
        keys.extend(self.api_offers.iter().map(|o| o.source.clone()));
        keys.extend(self.curves.iter().map(|c| c.source.clone()));
        keys.extend(self.headlines.iter().map(|h| h.source.clone()));
        keys
    }
}
