/** The look the service sells, as a prompt for hosted generators (paraphrasing the reference). */
export const STYLE_PROMPT = 'Black-and-white studio portrait of the same person, high contrast, subtly sharper jawline and cheekbones, ' +
    'identity, hair and clothes preserved. Both eyes glow pink-purple (#FF8AA8, #F786C6) with one thin horizontal ' +
    'laser line through both eyes. Dark charcoal background #19191A, film grain, square composition.';
//# sourceMappingURL=style-prompt.js.map