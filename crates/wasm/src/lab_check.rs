//! `LabCheck`: Check my fix a slice at a time, so a page never waits for
//! all twelve seeds in one call. `new LabCheck(text, settings)` refuses a
//! check past its work budget before anything runs; `step(units)` runs
//! about that much work; `progress` says how far it has come; `report()`
//! is the same `CheckReport` as `checkLab` once it is done. Dropping (or
//! `free()`ing) the object cancels it.

use wasm_bindgen::prelude::*;

use crate::args::whole_number_arg;
use crate::{parse_lab, parse_settings, settings_error, to_js};

#[wasm_bindgen]
pub struct LabCheck {
    check: queuelab_simulation::LabCheck,
}

#[wasm_bindgen]
impl LabCheck {
    /// A check of the lab (the text of a lab file) with `settings`
    /// (`{ knobId: value }`, partial; `undefined` for the file's own),
    /// ready to step. Throws as `checkLab` does, and "check refused: …"
    /// (with `path` "check") for a check estimated past its budget.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, KnobValue> | undefined")]
        settings: JsValue,
    ) -> Result<LabCheck, JsValue> {
        let lab = parse_lab("new LabCheck", &text)?;
        let settings = parse_settings("new LabCheck", &settings)?;
        let check = queuelab_simulation::LabCheck::new(&lab, &settings).map_err(settings_error)?;
        Ok(LabCheck { check })
    }

    /// Runs the check on until about `units` of work are done (at least
    /// one moment of a run; `undefined` is one moment); returns whether it
    /// has ended. Units are the events the runs log, the measure of
    /// `Playground.workEstimate`'s units.
    pub fn step(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number | undefined")] units: JsValue,
    ) -> Result<bool, JsValue> {
        let units = whole_number_arg("LabCheck.step", "units", &units, 0, u64::MAX)?;
        self.check.step(units).map_err(settings_error)
    }

    /// How far the check has come (`CheckProgress`): the seed running, the
    /// seeds done of all, its moment, the units done and estimated.
    #[wasm_bindgen(getter, unchecked_return_type = "CheckProgress")]
    pub fn progress(&self) -> Result<JsValue, JsError> {
        to_js(&self.check.progress())
    }

    /// The verdict (`CheckReport`, as `checkLab` answers it) once every
    /// seed has run; `null` before.
    #[wasm_bindgen(unchecked_return_type = "CheckReport | null")]
    pub fn report(&self) -> Result<JsValue, JsError> {
        match self.check.report() {
            Some(report) => to_js(report),
            None => Ok(JsValue::NULL),
        }
    }
}
