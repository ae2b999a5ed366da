/* api_dialect — the body of the dialect-dependent BSPlib calls.
 *
 * Included once per dialect after <bsp.h>, which maps the names and types; the
 * includer defines api_size(value, call, what), which turns a size or offset of
 * the dialect's type into a size_t or stops the run. Not a standalone header.
 */
#include "api/api.h"
#include "core/core_error.h"
#include "engine/engine.h"

#include <string.h>

void bsp_begin(bsp_pid_t P) { eng_begin((long long)P); }

bsp_pid_t bsp_nprocs(void)
{
    core_proc *p = core_self;
    if (p)
        return (bsp_pid_t)p->ctx->nprocs;
    if (eng_section_state() == ENG_RUNNING)
        api_self_slow("bsp_nprocs");
    return (bsp_pid_t)eng_available();
}

bsp_pid_t bsp_pid(void) { return (bsp_pid_t)api_self("bsp_pid")->ctx->pid; }

void bsp_push_reg(const void *ident, bsp_size_t size)
{
    core_proc *p = api_self("bsp_push_reg");
    core_push_reg(p, ident, api_size(size, "bsp_push_reg", "size"));
}

void bsp_pop_reg(const void *ident) { core_pop_reg(api_self("bsp_pop_reg"), ident); }

void bsp_put(bsp_pid_t pid, const void *src, void *dst, bsp_size_t offset, bsp_size_t nbytes)
{
    core_proc *p = api_self("bsp_put");
    if (nbytes)
        api_need(src, "bsp_put", "src");
    core_put(p, "bsp_put", (long long)pid, src, dst, api_size(offset, "bsp_put", "offset"),
             api_size(nbytes, "bsp_put", "size"), 0);
}

void bsp_hpput(bsp_pid_t pid, const void *src, void *dst, bsp_size_t offset, bsp_size_t nbytes)
{
    core_proc *p = api_self("bsp_hpput");
    if (nbytes)
        api_need(src, "bsp_hpput", "src");
    core_put(p, "bsp_hpput", (long long)pid, src, dst, api_size(offset, "bsp_hpput", "offset"),
             api_size(nbytes, "bsp_hpput", "size"), 1);
}

void bsp_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst, bsp_size_t nbytes)
{
    core_proc *p = api_self("bsp_get");
    if (nbytes)
        api_need(dst, "bsp_get", "dst");
    core_get(p, "bsp_get", (long long)pid, src, api_size(offset, "bsp_get", "offset"), dst,
             api_size(nbytes, "bsp_get", "size"), 0);
}

void bsp_hpget(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst, bsp_size_t nbytes)
{
    core_proc *p = api_self("bsp_hpget");
    if (nbytes)
        api_need(dst, "bsp_hpget", "dst");
    core_get(p, "bsp_hpget", (long long)pid, src, api_size(offset, "bsp_hpget", "offset"), dst,
             api_size(nbytes, "bsp_hpget", "size"), 1);
}

void bsp_set_tagsize(bsp_size_t *tag_nbytes)
{
    core_proc *p = api_self("bsp_set_tagsize");
    api_need(tag_nbytes, "bsp_set_tagsize", "tag_nbytes");
    size_t prev = core_set_tagsize(p, api_size(*tag_nbytes, "bsp_set_tagsize", "size"));
    *tag_nbytes = (bsp_size_t)prev;
}

void bsp_send(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t payload_nbytes)
{
    core_proc *p = api_self("bsp_send");
    if (p->ctx->tagsize)
        api_need(tag, "bsp_send", "tag");
    if (payload_nbytes)
        api_need(payload, "bsp_send", "payload");
    core_send(p, (long long)pid, tag, payload, api_size(payload_nbytes, "bsp_send", "size"));
}

void bsp_qsize(bsp_nprocs_t *nmessages, bsp_size_t *accum_nbytes)
{
    const core_ctx *c = api_self("bsp_qsize")->ctx;
    api_need(nmessages, "bsp_qsize", "nmessages");
    api_need(accum_nbytes, "bsp_qsize", "accum_nbytes");
    *nmessages = (bsp_nprocs_t)(c->nin - c->inhead);
    *accum_nbytes = (bsp_size_t)c->inbytes;
}

void bsp_get_tag(bsp_size_t *status, void *tag)
{
    const core_ctx *c = api_self("bsp_get_tag")->ctx;
    api_need(status, "bsp_get_tag", "status");
    if (c->inhead == c->nin) {
        *status = (bsp_size_t)-1;
        return;
    }
    const core_msg *m = &c->inq[c->inhead];
    *status = (bsp_size_t)m->size;
    if (m->tagsize) {
        api_need(tag, "bsp_get_tag", "tag");
        memcpy(tag, m->tag, m->tagsize);
    }
}

void bsp_move(void *payload, bsp_size_t reception_nbytes)
{
    core_ctx *c = api_self("bsp_move")->ctx;
    size_t room = api_size(reception_nbytes, "bsp_move", "size");
    if (room)
        api_need(payload, "bsp_move", "payload");
    if (c->inhead == c->nin)
        core_fatal("bsp_move", "the message queue is empty");
    const core_msg *m = &c->inq[c->inhead++];
    c->inbytes -= m->size;
    size_t n = m->size < room ? m->size : room;
    if (n)
        core_copy(payload, m->payload, n);
}

bsp_size_t bsp_hpmove(void **tag_ptr, void **payload_ptr)
{
    core_ctx *c = api_self("bsp_hpmove")->ctx;
    api_need(tag_ptr, "bsp_hpmove", "tag_ptr");
    api_need(payload_ptr, "bsp_hpmove", "payload_ptr");
    if (c->inhead == c->nin)
        return (bsp_size_t)-1;
    const core_msg *m = &c->inq[c->inhead++];
    c->inbytes -= m->size;
    /* BSPlib hands out non-const pointers; the messages live until the next sync. */
    *tag_ptr = (void *)(uintptr_t)m->tag;
    *payload_ptr = (void *)(uintptr_t)m->payload;
    return (bsp_size_t)m->size;
}
