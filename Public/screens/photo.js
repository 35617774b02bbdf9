// Full-size photo — seed 004. "Photo 3 of 12" needs arithmetic, which the declarative bindings
// deliberately don't do; the arrow keys click previous/next (which answer `navigate`).

export function mount(root, ctx, binder) {
  const position = root.querySelector('#photo-position');
  binder.onSnapshot((s) => {
    const photo = s.outputs.photo || {};
    const index = photo.index ?? s.outputs.initialPhotoIndex;
    position.textContent = s.outputs.count != null && index != null ? `Photo ${index + 1} of ${s.outputs.count}` : '';
  });

  const onKey = (event) => {
    if (event.target.closest('input, select, textarea') || event.altKey || event.ctrlKey || event.metaKey) return;
    const button = event.key === 'ArrowLeft' ? root.querySelector('#prev')
      : event.key === 'ArrowRight' ? root.querySelector('#next') : null;
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
